//! Owned values of the deepest shapes the decoder accepts (1024 levels) are built, cloned,
//! compared, printed, encoded, shown as text and dropped on a 256 KiB thread stack in an
//! unoptimised build: nothing recurses per nesting level.

#![cfg(feature = "alloc")]

#[path = "support/shapes.rs"]
mod shapes;

use gdwire::owned::{Array, Dictionary, Variant};
use gdwire::{Decoder, Dialect, ErrorKind, MAX_DEPTH};

/// Runs `f` on a thread with a 256 KiB stack (Rust's default is 2 MiB).
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deepest_values_as_owned_values() {
    for shape in [
        shapes::deep_chain,
        shapes::deep_with_siblings,
        shapes::deep_dict_keys,
    ] {
        on_small_stack(move || {
            let bytes = shape(MAX_DEPTH as usize);
            let mut other = bytes.clone();
            let leaf = (0..bytes.len())
                .step_by(4)
                .find(|&i| bytes[i..i + 4] == [2, 0, 0, 0])
                .unwrap();
            other[leaf + 4] = 7;
            let dec = Decoder::new(Dialect::GODOT_4);
            let view = dec.decode_exact(&bytes).unwrap();
            let a = dec.decode_owned_exact(&bytes).unwrap();
            let b = dec.decode_owned(&other).unwrap();
            assert!(dec.decode(&other).unwrap() != view);
            let from_view = view.to_owned();
            let copy = a.clone();
            assert!(a == from_view && a == copy && a != b);
            assert_eq!(format!("{a:?}"), format!("{view:?}"));
            assert_eq!(format!("{copy:#?}"), format!("{view:#?}"));
            assert!(a.to_vec(Dialect::GODOT_4).unwrap() == bytes);
            // The same text as the view's (Godot 4's writer stops at 100 levels, as the engine's).
            assert_eq!(
                a.to_text(Dialect::GODOT_4).unwrap(),
                gdwire::text::to_text(Dialect::GODOT_4, &view).unwrap()
            );
            drop((a, b, from_view, copy));
        });
    }
}

#[test]
fn values_built_by_hand_deeper_than_the_engine_limit_drop_and_clone() {
    on_small_stack(|| {
        // 100,000 nested arrays, dictionaries alternating, each with a sibling.
        let mut v = Variant::Nil;
        for i in 0..100_000 {
            v = if i % 2 == 0 {
                Variant::from(vec![v, Variant::Int(i)])
            } else {
                let mut d = Dictionary::new();
                d.push(v, i);
                Variant::from(d)
            };
        }
        let copy = v.clone();
        assert!(copy == v);
        assert!(format!("{v:?}").contains('…'));
        // Encoding stops at the engine's limit.
        let err = v.to_vec(Dialect::GODOT_4).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep { limit: MAX_DEPTH });
        drop(copy);
        drop(v);
        // An Array taken apart keeps working.
        let mut a = Array::new();
        for _ in 0..100_000 {
            a = Array::from(vec![Variant::from(a)]);
        }
        let items = a.into_vec();
        assert_eq!(items.len(), 1);
    });
}

#[test]
fn exactly_the_engine_limit_encodes_and_one_more_does_not() {
    on_small_stack(|| {
        let nest = |levels: usize| {
            let mut v = Variant::Int(1);
            for _ in 0..levels {
                v = Variant::from(vec![v]);
            }
            v
        };
        // The leaf of `MAX_DEPTH` arrays is at depth 1024: the engine's limit.
        let ok = nest(MAX_DEPTH as usize);
        let bytes = ok.to_vec(Dialect::GODOT_4).unwrap();
        assert!(Variant::from_bytes(Dialect::GODOT_4, &bytes).unwrap() == ok);
        let err = nest(MAX_DEPTH as usize + 1)
            .to_vec(Dialect::GODOT_4)
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep { limit: MAX_DEPTH });
    });
}
