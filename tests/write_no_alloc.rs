//! Writing into a `&mut [u8]` performs no heap allocation: re-encoding every real-engine
//! fixture, the streaming calls, a too-small buffer, error paths and a 1024-level-deep value.
//! A counting global allocator proves it.

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

use gdwire::math::{Basis, Color, Vector2};
use gdwire::write::Endian;
use gdwire::{encoded_len, to_slice, ContainerTypeSpec, Decoder, Dialect, VariantType, Writer};

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

fn fixtures() -> Vec<Vec<u8>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/godot3/values.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("real-engine fixture values.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let h = v["hex"].as_str().unwrap();
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        })
        .collect()
}

fn deep_arrays(levels: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..levels {
        out.extend_from_slice(&[0x1c, 0, 0, 0, 2, 0, 0, 0]);
    }
    out.extend_from_slice(&[0, 0, 0, 0]);
    for _ in 0..levels {
        out.extend_from_slice(&[2, 0, 0, 0, 7, 0, 0, 0]);
    }
    out
}

// One test only: the counter is global.
#[test]
fn writing_into_a_slice_never_allocates() {
    let fixtures = fixtures();
    let deep = deep_arrays(1024);
    let mut buf = vec![0u8; 1 << 16];
    let mut written = 0usize;
    let count = allocations_in(|| {
        let decoder = Decoder::new(Dialect::GODOT_3).with_allow_objects(true);
        for bytes in &fixtures {
            let v = decoder.decode(bytes).unwrap();
            for d in [Dialect::GODOT_3, Dialect::GODOT_4, Dialect::PANDEMONIUM_5] {
                written += to_slice(d, &v, &mut buf).unwrap_or(0);
                written += encoded_len(d, &v).unwrap_or(0);
                // Too small: BufferFull, still no allocation.
                let _ = to_slice(d, &v, &mut buf[..3]);
            }
        }
        // A value nested 1024 deep with pending siblings at every level.
        let v = Decoder::new(Dialect::GODOT_4).decode(&deep).unwrap();
        written += to_slice(Dialect::GODOT_4, &v, &mut buf).unwrap();

        // Streaming calls, prefix, typed containers, errors.
        let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4).with_length_prefix(Endian::Big);
        let r = (|| {
            w.begin_typed_dictionary(
                2,
                ContainerTypeSpec::Builtin(VariantType::String),
                ContainerTypeSpec::ClassName("Node"),
            )?;
            w.string("a")?;
            w.object_id(42)?;
            w.string("b")?;
            w.begin_array(6)?;
            w.vector2(Vector2 { x: 1.0, y: 2.0 })?;
            w.basis(Basis::default())?;
            w.color(Color::default())?;
            w.node_path_str("/root/a:b")?;
            w.packed_strings(["x", "yz"])?;
            w.packed_vector3((0..100).map(|i| [i as f32, 0.0, 1.0]))
        })();
        r.unwrap();
        written += w.finish().unwrap();
        let mut w = Writer::new(&mut buf[..2], Dialect::GODOT_4);
        let _ = w.string("does not fit");
        let _ = w.finish();
        let mut w = Writer::new(&mut buf[..], Dialect::GODOT_3);
        let _ = w.begin_array(2);
        let _ = w.finish();
        let _ = w.raw(&[0xff, 0, 0, 0]);
        // Heap spill allowed but not needed: 63 saved containers fit the fixed slots.
        let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4).with_heap_spill(true);
        for _ in 0..gdwire::write::MAX_OPEN_CONTAINERS {
            w.begin_array(2).unwrap();
        }
        for _ in 0..=gdwire::write::MAX_OPEN_CONTAINERS {
            w.nil().unwrap();
        }
        written += w.finish().unwrap();
    });
    assert!(written > 0);
    assert_eq!(count, 0, "the slice write path allocated");
    // One container more does spill (so the check above could fail).
    let count = allocations_in(|| {
        let mut w = Writer::new(&mut buf[..], Dialect::GODOT_4).with_heap_spill(true);
        for _ in 0..=gdwire::write::MAX_OPEN_CONTAINERS {
            w.begin_array(2).unwrap();
        }
    });
    assert_eq!(count, 1);
}
