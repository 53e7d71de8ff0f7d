//! Every operation on views of the deepest values the decoder accepts works on a 256 KiB
//! thread stack in an unoptimised build (nothing recurses per nesting level): equality,
//! `Debug`, re-encoding, JSON both ways and the text form (which the engine cuts at 101 levels).

#[path = "support/shapes.rs"]
mod shapes;

use gdwire::{json, text, to_vec, Decoder, Dialect, MAX_DEPTH};

/// Runs `f` on each deepest shape's bytes, on a thread with a 256 KiB stack (Rust's default
/// is 2 MiB; tests run unoptimised).
fn on_deepest_values(f: fn(Vec<u8>)) {
    for shape in [
        shapes::deep_chain,
        shapes::deep_with_siblings,
        shapes::deep_dict_keys,
    ] {
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || f(shape(MAX_DEPTH as usize)))
            .unwrap()
            .join()
            .unwrap();
    }
}

#[test]
fn deepest_values_compare_and_print() {
    on_deepest_values(|bytes| {
        // The same value with its innermost leaf changed (the first Int after the headers).
        let mut other = bytes.clone();
        let leaf = (0..bytes.len())
            .step_by(4)
            .find(|&i| bytes[i..i + 4] == [2, 0, 0, 0])
            .unwrap();
        other[leaf + 4] = 7;
        let copy = bytes.clone();
        let dec = Decoder::new(Dialect::GODOT_4);
        let (a, a2, b) = (
            dec.decode(&bytes).unwrap(),
            dec.decode(&copy).unwrap(),
            dec.decode(&other).unwrap(),
        );
        assert!(a == a2);
        assert!(a != b);
        for text in [format!("{a:?}"), format!("{a:#?}")] {
            // 64 levels shown below the outer one, then an ellipsis; balanced brackets.
            assert_eq!(text.matches('…').count(), 1, "{}", &text[..200]);
            let opens = text.matches(['[', '{', '(']).count();
            let closes = text.matches([']', '}', ')']).count();
            assert_eq!(opens, closes);
            assert!(text.matches('[').count() + text.matches('{').count() >= 65);
        }
    });
}

#[test]
fn deepest_values_reencode_and_print_as_json_and_text() {
    on_deepest_values(|bytes| {
        let v = Decoder::new(Dialect::GODOT_4).decode_exact(&bytes).unwrap();
        // The shapes are canonical: re-encoding gives the same bytes.
        assert!(to_vec(Dialect::GODOT_4, &v).unwrap() == bytes);
        let dumped = json::to_json_string(Dialect::GODOT_4, &v).unwrap();
        assert!(dumped.matches('[').count() >= MAX_DEPTH as usize);
        assert!(json::from_json_str(Dialect::GODOT_4, &dumped).unwrap() == bytes);
        // Godot 4's var_to_str writes 101 levels, then a container as `[]` / `{}`
        // (engine-checked: tests/fixtures/godot4, `deep_*`; docs/text.md).
        let printed = text::to_text(Dialect::GODOT_4, &v).unwrap();
        let (mut level, mut deepest) = (0i32, 0);
        for c in printed.chars() {
            match c {
                '[' | '{' => level += 1,
                ']' | '}' => level -= 1,
                _ => {}
            }
            deepest = deepest.max(level);
        }
        assert_eq!(level, 0);
        assert!((101..=102).contains(&deepest), "{deepest}");
    });
}
