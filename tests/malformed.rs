//! Rejections with engine parity (docs/wire-format.md §5.1, §5.2, §5.4) for Godot 4 and Godot 3 dialects,
//! nesting limits, trailing bytes, and a deterministic bit-flip / truncation sweep over every
//! dialect. Vectors are derived from the spec by hand, not engine-checked (the Godot 3 engine
//! fixtures are tested separately in `tests/godot3_fixtures.rs`).

mod support;

use gdwire::{
    from_bytes, from_bytes_exact, Decoder, Dialect, Error, ErrorKind, Expected, VariantRef,
    VariantType,
};
use support::hex;
use support::vectors::{f32_run, f64_run, walk};

const G4: Dialect = Dialect::GODOT_4;
const G3: Dialect = Dialect::GODOT_3;

const ERR_UNAUTHORIZED: i32 = 4;
const ERR_OUT_OF_MEMORY: i32 = 6;
const ERR_FILE_EOF: i32 = 18;
const ERR_INVALID_DATA: i32 = 30;

/// Asserts the error's kind, engine code and offset.
#[track_caller]
fn fails(d: Dialect, bytes: &[u8], kind: ErrorKind, code: i32, offset: usize) -> Error {
    let err = from_bytes(d, bytes).expect_err("must fail");
    assert_eq!(err.kind(), kind, "{d}: {bytes:02x?}");
    assert_eq!(err.kind().engine_code(), Some(code), "{d}: {kind:?}");
    assert_eq!(err.offset(), offset, "{d}: offset of {kind:?}");
    // Every entry point agrees.
    let dec = Decoder::new(d);
    assert_eq!(dec.validate(bytes), Err(err));
    assert_eq!(from_bytes_exact(d, bytes), Err(err));
    let mut cursor = dec.cursor(bytes);
    assert_eq!(cursor.read(), Err(err));
    assert_eq!(cursor.position(), 0, "cursor must not move on error");
    err
}

// ---------------------------------------------------------------------------------------------
// Truncation: every prefix of multi-part values fails, never panics.
// ---------------------------------------------------------------------------------------------

/// Multi-part values, none ending in a PackedByteArray (whose missing pad is accepted).
fn multipart_g4() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "dict {\"a\": [1, \"xyz\"], 2: 0.1}",
            hex("1b000000 02000000 04000000 01000000 61000000 \
                 1c000000 02000000 02000000 01000000 04000000 03000000 78797a00 \
                 02000000 02000000 03000100 9a9999999999b93f"),
        ),
        (
            "NodePath /root/a:b",
            hex("16000000 02000080 01000000 01000000 04000000 726f6f74 \
                 01000000 61000000 01000000 62000000"),
        ),
        (
            "PackedStringArray [ab, xyz]",
            hex("22000000 02000000 03000000 61620000 04000000 78797a00"),
        ),
        (
            "Signal pressed",
            hex("1a000000 07000000 70726573 73656400 3412000000000000"),
        ),
        (
            "Array[Node] [id 42]",
            hex("1c000200 04000000 4e6f6465 01000000 18000100 2a00000000000000"),
        ),
        (
            "typed dict String->Node {}",
            hex("1b000900 04000000 04000000 4e6f6465 00000000"),
        ),
        ("Transform3D double", f64_run("12000100", 1, 12)),
        ("Projection single", f32_run("13000000", 1, 16)),
        (
            "PackedVector2Array double",
            f64_run("23000100 02000000", 1, 4),
        ),
        ("RID", hex("17000000 0d00000000000000")),
        ("Int64", hex("02000100 efcdab8967452301")),
    ]
}

fn multipart_g3() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "[1, \"a\"]",
            hex("13000000 02000000 02000000 01000000 04000000 01000000 61000000"),
        ),
        (
            "{\"k\": Vector2(1, 2)}",
            hex("12000000 01000000 04000000 01000000 6b000000 05000000 0000803f 00000040"),
        ),
        (
            "NodePath a:b",
            hex("0f000000 01000080 01000000 00000000 01000000 61000000 01000000 62000000"),
        ),
        (
            "PoolStringArray [ab]",
            hex("17000000 01000000 03000000 61620000"),
        ),
        ("Transform", f32_run("0d000000", 1, 12)),
        ("PoolColorArray", f32_run("1a000000 01000000", 1, 4)),
    ]
}

fn check_all_prefixes(d: Dialect, name: &str, full: &[u8]) {
    let dec = Decoder::new(d);
    assert_eq!(
        dec.decode_prefix(full).map(|x| x.1),
        Ok(full.len()),
        "{d} {name}"
    );
    for len in 0..full.len() {
        let err = dec
            .decode(&full[..len])
            .expect_err(&format!("{d} {name}: prefix of {len} bytes accepted"));
        let code = err.kind().engine_code();
        assert!(
            code == Some(ERR_INVALID_DATA) || code == Some(ERR_FILE_EOF),
            "{d} {name} prefix {len}: {err}"
        );
        assert!(err.offset() <= len, "{d} {name} prefix {len}: {err}");
        // A missing header or count is ERR_INVALID_DATA; ERR_FILE_EOF only comes from a string
        // block whose length word is there but whose bytes or padding are not.
        match err.kind() {
            ErrorKind::StringLength { len: n } => {
                assert!(
                    n >= 0 && err.offset() + 4 <= len,
                    "{d} {name} prefix {len}: {err}"
                )
            }
            ErrorKind::Truncated(_) => {}
            other => panic!("{d} {name} prefix {len}: unexpected {other:?}"),
        }
    }
}

#[test]
fn every_truncation_fails_godot4() {
    for d in [Dialect::GODOT_4_3, Dialect::GODOT_4_4] {
        for (name, full) in multipart_g4() {
            if d == Dialect::GODOT_4_3 && name.starts_with("typed dict") {
                continue;
            }
            check_all_prefixes(d, name, &full);
        }
    }
}

#[test]
fn every_truncation_fails_godot3() {
    for (name, full) in multipart_g3() {
        check_all_prefixes(G3, name, &full);
    }
}

#[test]
fn truncation_codes_follow_the_engine() {
    // Spec §5.1: header short → 30; string length word short → 30; string bytes or pad short
    // → 18; fixed payload short → 30.
    let s = hex("04000000 03000000 616263 00");
    for d in [G4, G3] {
        fails(
            d,
            &s[..3],
            ErrorKind::Truncated(Expected::Header),
            ERR_INVALID_DATA,
            0,
        );
        fails(
            d,
            &s[..6],
            ErrorKind::Truncated(Expected::StringLength),
            ERR_INVALID_DATA,
            4,
        );
        fails(
            d,
            &s[..8],
            ErrorKind::StringLength { len: 3 },
            ERR_FILE_EOF,
            4,
        );
        // Missing padding: all text there, pad absent.
        fails(
            d,
            &s[..11],
            ErrorKind::StringLength { len: 3 },
            ERR_FILE_EOF,
            4,
        );
    }
    let int = hex("02000000 0500");
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Int));
    fails(G4, &int, t, ERR_INVALID_DATA, 4);
    // 64-bit Int / Float with only 4 payload bytes.
    fails(G4, &hex("02000100 05000000"), t, ERR_INVALID_DATA, 4);
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Float));
    fails(G3, &hex("03000100 0000003f"), t, ERR_INVALID_DATA, 4);
    // Flagged Vector2 with only f32 components (Godot 4 follows the flag).
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Vector2));
    fails(G4, &f32_run("05000100", 1, 2), t, ERR_INVALID_DATA, 4);
    // Bool, Color, RID, Object id, Signal id.
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Bool));
    fails(G4, &hex("01000000"), t, ERR_INVALID_DATA, 4);
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Color));
    fails(G4, &f32_run("14000000", 1, 3), t, ERR_INVALID_DATA, 4);
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Rid));
    fails(G4, &hex("17000000 01000000"), t, ERR_INVALID_DATA, 4);
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Object));
    fails(G4, &hex("18000100 01000000"), t, ERR_INVALID_DATA, 4);
    fails(G3, &hex("11000100 01000000"), t, ERR_INVALID_DATA, 4);
    let t = ErrorKind::Truncated(Expected::Payload(VariantType::Signal));
    fails(
        G4,
        &hex("1a000000 00000000 01000000"),
        t,
        ERR_INVALID_DATA,
        8,
    );
    // Container counts.
    let t = ErrorKind::Truncated(Expected::Count);
    fails(G4, &hex("1c000000 0100"), t, ERR_INVALID_DATA, 4);
    fails(G3, &hex("12000000"), t, ERR_INVALID_DATA, 4);
    fails(G4, &hex("1e000000"), t, ERR_INVALID_DATA, 4);
    // Typed array type block.
    let t = ErrorKind::Truncated(Expected::ContainerType);
    fails(G4, &hex("1c000100 0200"), t, ERR_INVALID_DATA, 4);
    // Missing element inside a container: the element's header.
    let t = ErrorKind::Truncated(Expected::Header);
    fails(
        G4,
        &hex("1c000000 02000000 00000000"),
        t,
        ERR_INVALID_DATA,
        12,
    );
}

#[test]
fn packed_string_array_count_too_large() {
    // Confirmed against Godot 3.2.3 (tests/fixtures/godot3/malformed.jsonl,
    // pool_string_array_trunc16/12): ending at an element boundary is ERR_INVALID_DATA, a
    // length word without its bytes ERR_FILE_EOF.
    let b = hex("22000000 02000000 03000000 61620000");
    fails(
        G4,
        &b,
        ErrorKind::Truncated(Expected::StringLength),
        ERR_INVALID_DATA,
        16,
    );
    let b = hex("22000000 02000000 03000000 61620000 05000000");
    fails(G4, &b, ErrorKind::StringLength { len: 5 }, ERR_FILE_EOF, 16);
}

// ---------------------------------------------------------------------------------------------
// Bad ids, lengths, counts.
// ---------------------------------------------------------------------------------------------

#[test]
fn unknown_type_ids_in_every_dialect() {
    for d in Dialect::ALL {
        let max = d.variant_max();
        for id in max..=255 {
            let b = [id, 0, 0, 0, 0, 0, 0, 0];
            fails(
                d,
                &b,
                ErrorKind::UnknownType { id, max },
                ERR_INVALID_DATA,
                0,
            );
        }
        // Bits 8–15 do not make an id valid or invalid.
        assert!(from_bytes(d, &[0, 0xff, 0, 0]).unwrap().is_nil());
    }
    // Inside a container the error points at the element.
    fails(
        G4,
        &hex("1c000000 02000000 00000000 27000000"),
        ErrorKind::UnknownType { id: 39, max: 39 },
        ERR_INVALID_DATA,
        12,
    );
    fails(
        G3,
        &hex("12000000 01000000 1b000000 00000000"),
        ErrorKind::UnknownType { id: 27, max: 27 },
        ERR_INVALID_DATA,
        8,
    );
}

#[test]
fn string_length_negative_or_overflowing() {
    for d in [G4, G3] {
        for (word, len) in [
            ("ffffffff", -1),
            ("00000080", i32::MIN),
            ("ffffff7f", i32::MAX), // len + pad overflows int32
            ("fdffff7f", i32::MAX - 2),
            ("08000000", 8), // more than is left
        ] {
            let b = hex(&format!("04000000 {word} 61626364"));
            fails(d, &b, ErrorKind::StringLength { len }, ERR_FILE_EOF, 4);
        }
    }
    // Same rule for StringName, object class names, NodePath parts, Signal names.
    fails(
        G4,
        &hex("15000000 ffffffff"),
        ErrorKind::StringLength { len: -1 },
        ERR_FILE_EOF,
        4,
    );
    fails(
        G4,
        &hex("1a000000 ffffffff 0000000000000000"),
        ErrorKind::StringLength { len: -1 },
        ERR_FILE_EOF,
        4,
    );
    fails(
        G4,
        &hex("16000000 01000080 00000000 00000000 ffffffff"),
        ErrorKind::StringLength { len: -1 },
        ERR_FILE_EOF,
        16,
    );
}

#[test]
fn node_path_old_format_and_short_header() {
    for (d, id) in [(G4, "16"), (G3, "0f")] {
        fails(
            d,
            &hex(&format!("{id}000000 01000000 61000000")),
            ErrorKind::OldNodePath,
            ERR_INVALID_DATA,
            4,
        );
        let t = ErrorKind::Truncated(Expected::NodePathHeader);
        fails(d, &hex(&format!("{id}000000 0000")), t, ERR_INVALID_DATA, 4);
        fails(
            d,
            &hex(&format!("{id}000000 00000080 00000000")),
            t,
            ERR_INVALID_DATA,
            4,
        );
    }
}

/// (Godot 4 id, element size) of every fixed-size packed array.
const G4_PACKED: [(u8, u32, VariantType); 9] = [
    (0x1e, 4, VariantType::PackedInt32Array),
    (0x1f, 8, VariantType::PackedInt64Array),
    (0x20, 4, VariantType::PackedFloat32Array),
    (0x21, 8, VariantType::PackedFloat64Array),
    (0x23, 8, VariantType::PackedVector2Array),
    (0x24, 12, VariantType::PackedVector3Array),
    (0x25, 16, VariantType::PackedColorArray),
    (0x26, 16, VariantType::PackedVector4Array),
    (0x1d, 1, VariantType::PackedByteArray),
];

#[test]
fn packed_counts_negative_overflowing_too_large() {
    for (id, size, ty) in G4_PACKED {
        for count in [-1i32, i32::MIN] {
            let mut b = vec![id, 0, 0, 0];
            b.extend_from_slice(&count.to_le_bytes());
            fails(
                G4,
                &b,
                ErrorKind::NegativeCount { count },
                ERR_INVALID_DATA,
                4,
            );
        }
        let mut b = vec![id, 0, 0, 0, 2, 0, 0, 0];
        b.extend(std::iter::repeat_n(0, size as usize));
        fails(
            G4,
            &b,
            ErrorKind::Truncated(Expected::Elements(ty)),
            ERR_INVALID_DATA,
            4,
        );
        if size == 1 {
            continue; // PackedByteArray: no multiplication, only `count > remaining`
        }
        // Smallest count whose byte size exceeds i32::MAX, and the largest that does not.
        let overflow = (i32::MAX as u32) / size + 1;
        let mut b = vec![id, 0, 0, 0];
        b.extend_from_slice(&overflow.to_le_bytes());
        fails(
            G4,
            &b,
            ErrorKind::SizeOverflow {
                count: overflow,
                size,
            },
            ERR_INVALID_DATA,
            4,
        );
        let mut b = vec![id, 0, 0, 0];
        b.extend_from_slice(&(overflow - 1).to_le_bytes());
        fails(
            G4,
            &b,
            ErrorKind::Truncated(Expected::Elements(ty)),
            ERR_INVALID_DATA,
            4,
        );
    }
    // The 64-bit flag doubles PackedVector2Array's element size: 0x08000000 × 16 overflows.
    fails(
        G4,
        &hex("23000100 00000008"),
        ErrorKind::SizeOverflow {
            count: 0x0800_0000,
            size: 16,
        },
        ERR_INVALID_DATA,
        4,
    );
    // Godot 3 PoolIntArray.
    fails(
        G3,
        &hex("15000000 ffffffff"),
        ErrorKind::NegativeCount { count: -1 },
        ERR_INVALID_DATA,
        4,
    );
    fails(
        G3,
        &hex("15000000 00000020"),
        ErrorKind::SizeOverflow {
            count: 0x2000_0000,
            size: 4,
        },
        ERR_INVALID_DATA,
        4,
    );
}

#[test]
fn typed_container_bad_builtin_id() {
    for (id, word) in [
        (39, "27000000"),
        (-1, "ffffffff"),
        (255, "ff000000"),
        (256, "00010000"),
    ] {
        fails(
            G4,
            &hex(&format!("1c000100 {word} 00000000")),
            ErrorKind::InvalidContainerType { id },
            ERR_INVALID_DATA,
            4,
        );
        // Typed dictionary value block (after a valid key block).
        fails(
            G4,
            &hex(&format!("1b000500 02000000 {word} 00000000")),
            ErrorKind::InvalidContainerType { id },
            ERR_INVALID_DATA,
            8,
        );
    }
    // 38 (PackedVector4Array) is valid from 4.3.
    assert!(from_bytes(Dialect::GODOT_4_3, &hex("1c000100 26000000 00000000")).is_ok());
}

#[test]
fn full_objects_need_permission() {
    let node = "04000000 4e6f6465 00000000";
    for (d, id) in [(G4, "18"), (G3, "11")] {
        fails(
            d,
            &hex(&format!("{id}000000 {node}")),
            ErrorKind::ObjectsNotAllowed,
            ERR_UNAUTHORIZED,
            0,
        );
        // The permission check comes before any payload check.
        fails(
            d,
            &hex(&format!("{id}000000")),
            ErrorKind::ObjectsNotAllowed,
            ERR_UNAUTHORIZED,
            0,
        );
        // Inside a container.
        let array = if d == G4 { "1c" } else { "13" };
        fails(
            d,
            &hex(&format!("{array}000000 01000000 {id}000000 {node}")),
            ErrorKind::ObjectsNotAllowed,
            ERR_UNAUTHORIZED,
            8,
        );
        let dec = Decoder::new(d).with_allow_objects(true);
        assert!(dec
            .decode_exact(&hex(&format!("{id}000000 {node}")))
            .is_ok());
        let err = dec
            .decode(&hex(&format!("{id}000000 04000000 4e6f6465")))
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated(Expected::PropertyCount));
        assert_eq!((err.kind().engine_code(), err.offset()), (Some(30), 12));
    }
}

// ---------------------------------------------------------------------------------------------
// Accepted oddities: PackedByteArray padding, PackedStringArray negative count, masked counts.
// ---------------------------------------------------------------------------------------------

#[test]
fn packed_byte_array_missing_pad_at_end_is_accepted() {
    for (d, pba, array, nil) in [(G4, "1d", "1c", "00"), (G3, "14", "13", "00")] {
        let top = hex(&format!("{pba}000000 03000000 010203"));
        let (v, used) = Decoder::new(d).decode_prefix(&top).unwrap();
        assert!(matches!(v, VariantRef::PackedByteArray(p) if p.as_bytes() == [1, 2, 3]));
        assert_eq!(used, 11);
        assert!(from_bytes_exact(d, &top).is_ok());

        let last = hex(&format!(
            "{array}000000 01000000 {pba}000000 03000000 010203"
        ));
        let v = from_bytes_exact(d, &last).unwrap();
        assert_eq!(walk(&v).unwrap(), 2 + 3);

        // In a dictionary, as the last value.
        let dict = if d == G4 { "1b" } else { "12" };
        let b = hex(&format!(
            "{dict}000000 01000000 00000000 {pba}000000 01000000 ff"
        ));
        assert!(from_bytes_exact(d, &b).is_ok());

        // Followed by another element: the element is read where the pad would end (byte
        // 20), and only 3 bytes are left there.
        let b = hex(&format!(
            "{array}000000 02000000 {pba}000000 03000000 010203 {nil}000000"
        ));
        fails(
            d,
            &b,
            ErrorKind::Truncated(Expected::Header),
            ERR_INVALID_DATA,
            20,
        );
        // …and when enough bytes follow, the next element is read 1 byte late, as in the
        // engine (docs/engine-parity.md): `02000000 05000000 00` is read from byte 20 as
        // `00000005` = Nil (bits 8–31 ignored), leaving 5 trailing bytes.
        let b = hex(&format!(
            "{array}000000 02000000 {pba}000000 03000000 010203 02000000 05000000 00"
        ));
        let (v, used) = Decoder::new(d).decode_prefix(&b).unwrap();
        assert_eq!(used, 24);
        let items: Vec<_> = v.as_array().unwrap().iter().collect();
        assert_eq!(items[1], VariantRef::Nil);
    }
}

#[test]
fn packed_string_array_negative_count_is_empty() {
    for (d, id) in [(G4, "22"), (G3, "17")] {
        for count in ["ffffffff", "00000080"] {
            let b = hex(&format!("{id}000000 {count}"));
            let (v, used) = Decoder::new(d).decode_prefix(&b).unwrap();
            assert!(matches!(v, VariantRef::PackedStringArray(p) if p.is_empty()));
            assert_eq!(used, 8);
        }
    }
}

#[test]
fn array_and_dictionary_counts_are_masked() {
    for (d, array, dict) in [(G4, "1c", "1b"), (G3, "13", "12")] {
        let b = hex(&format!("{array}000000 01000080 02000000 05000000"));
        let a = from_bytes_exact(d, &b).unwrap().as_array().unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a.get(0).unwrap(), VariantRef::Int(5));
        let b = hex(&format!("{dict}000000 01000080 02000000 05000000 00000000"));
        let m = from_bytes_exact(d, &b).unwrap().as_dictionary().unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m.get_by_int_key(5), Some(VariantRef::Nil));
        // 0x80000000 is an empty container.
        let b = hex(&format!("{array}000000 00000080"));
        assert!(from_bytes_exact(d, &b)
            .unwrap()
            .as_array()
            .unwrap()
            .is_empty());
    }
    // Huge masked counts fail on the first missing element, not on allocation.
    fails(
        G4,
        &hex("1c000000 ffffffff"),
        ErrorKind::Truncated(Expected::Header),
        ERR_INVALID_DATA,
        8,
    );
    fails(
        G4,
        &hex("1b000000 ffffffff 00000000"),
        ErrorKind::Truncated(Expected::Header),
        ERR_INVALID_DATA,
        12,
    );
}

#[test]
fn node_path_counts_wrap_like_the_engine() {
    // Spec §4.5: counts are uint32 and `total = names + subnames` wraps. 1 name + 0xFFFFFFFF
    // subnames = 0 parts; 2 names + 0xFFFFFFFF = 1 part, which is a name.
    let b = hex("16000000 01000080 ffffffff 00000000");
    let (v, used) = Decoder::new(G4).decode_prefix(&b).unwrap();
    let p = v.as_node_path().unwrap();
    assert_eq!((p.name_count(), p.subname_count(), used), (0, 0, 16));
    let b = hex("16000000 02000080 ffffffff 00000000 01000000 61000000");
    let p = from_bytes_exact(G4, &b).unwrap().as_node_path().unwrap();
    assert!(p.names().eq(["a"]));
    assert_eq!(p.subname_count(), 0);
    // With the property flag the extra subname wraps the count too: 0xFFFFFFFF + 1 = 0.
    let b = hex("0f000000 01000080 ffffffff 02000000 01000000 61000000");
    let p = from_bytes_exact(G3, &b).unwrap().as_node_path().unwrap();
    assert!(p.names().eq(["a"]));
    assert_eq!(p.subname_count(), 0);
}

#[test]
fn godot3_math_ignores_the_64_bit_flag() {
    // Spec §3.4: Godot 3 math is always f32; only Int and Float follow bit 16.
    let b = f32_run("05000100", 1, 2);
    let (v, used) = Decoder::new(G3).decode_prefix(&b).unwrap();
    assert_eq!(used, 12);
    assert_eq!(v.precision(), Some(gdwire::Precision::Single));
    let b = hex("02000100 ffffffff ffffffff");
    assert_eq!(from_bytes_exact(G3, &b), Ok(VariantRef::Int(-1)));
}

// ---------------------------------------------------------------------------------------------
// Nesting depth (docs/wire-format.md §5.2): top level = depth 0; a value at depth > limit fails.
// ---------------------------------------------------------------------------------------------

/// `levels` nested single-element arrays around `inner` (or an empty innermost array).
fn nested_arrays(array_id: u8, levels: usize, inner: Option<&[u8]>) -> Vec<u8> {
    let mut b = Vec::with_capacity(levels * 8 + 8);
    for i in 0..levels {
        let count = if i + 1 == levels && inner.is_none() {
            0
        } else {
            1
        };
        b.extend_from_slice(&[array_id, 0, 0, 0, count, 0, 0, 0]);
    }
    if let Some(inner) = inner {
        b.extend_from_slice(inner);
    }
    b
}

const INT7: [u8; 8] = [2, 0, 0, 0, 7, 0, 0, 0];

fn too_deep(limit: u32, offset: usize) -> impl Fn(Error) {
    move |err: Error| {
        assert_eq!(err.kind(), ErrorKind::TooDeep { limit });
        assert_eq!(err.kind().engine_code(), Some(ERR_OUT_OF_MEMORY));
        assert_eq!(err.offset(), offset);
    }
}

#[test]
fn depth_limit_1024_exactly() {
    for (d, array) in [(G4, 0x1c), (G3, 0x13), (Dialect::PANDEMONIUM_5, 0x1a)] {
        // 1024 arrays (depths 0..=1023) + Int at depth 1024: accepted.
        let b = nested_arrays(array, 1024, Some(&INT7));
        assert_eq!(Decoder::new(d).validate(&b), Ok(b.len()), "{d}");
        // 1025 arrays + Int at depth 1025: rejected where the Int starts.
        let b = nested_arrays(array, 1025, Some(&INT7));
        let err = from_bytes(d, &b).unwrap_err();
        too_deep(1024, 8 * 1025)(err);
        // 1025 arrays, the innermost empty (at depth 1024): accepted.
        let b = nested_arrays(array, 1025, None);
        assert!(from_bytes_exact(d, &b).is_ok(), "{d}");
        // 1026 arrays, innermost empty at depth 1025: rejected.
        let b = nested_arrays(array, 1026, None);
        too_deep(1024, 8 * 1025)(from_bytes(d, &b).unwrap_err());
        // The depth check comes before reading: a missing value at depth 1025 is TooDeep.
        let mut b = nested_arrays(array, 1025, None);
        b[8 * 1024 + 4] = 1;
        too_deep(1024, 8 * 1025)(from_bytes(d, &b).unwrap_err());
    }
}

#[test]
fn depth_limit_counts_dictionary_keys_values_and_properties() {
    // {0: {0: … {0: 7}}}: 1024 dictionaries (key and Int at depth 1024) accepted, 1025 rejected.
    let dict = |levels: usize| {
        let mut b = Vec::new();
        for _ in 0..levels {
            b.extend_from_slice(&hex("1b000000 01000000 02000000 00000000"));
        }
        b.extend_from_slice(&INT7);
        b
    };
    assert!(from_bytes_exact(G4, &dict(1024)).is_ok());
    // The 1025th dictionary is at depth 1024; its key (byte 16 * 1024 + 8) is at depth 1025.
    too_deep(1024, 16 * 1024 + 8)(from_bytes(G4, &dict(1025)).unwrap_err());
    // A nested key: {[7]: nil} with limit 1 — the key array is depth 1, its element depth 2.
    let b = hex("1b000000 01000000 1c000000 01000000 02000000 07000000 00000000");
    let dec = Decoder::new(G4).with_max_depth(1);
    too_deep(1, 16)(dec.decode(&b).unwrap_err());
    assert!(Decoder::new(G4).with_max_depth(2).decode_exact(&b).is_ok());
    // Object property values are one level deeper than the object.
    let obj = hex(
        "18000000 04000000 4e6f6465 01000000 01000000 61000000 1c000000 01000000 02000000 07000000",
    );
    let dec = Decoder::new(G4).with_allow_objects(true);
    assert!(dec.with_max_depth(2).decode_exact(&obj).is_ok());
    too_deep(1, 32)(dec.with_max_depth(1).decode(&obj).unwrap_err());
}

#[test]
fn with_max_depth_raises_and_lowers_the_limit() {
    let b = nested_arrays(0x1c, 10, Some(&INT7));
    assert!(Decoder::new(G4).with_max_depth(10).decode_exact(&b).is_ok());
    too_deep(9, 80)(Decoder::new(G4).with_max_depth(9).decode(&b).unwrap_err());
    // Limit 0: only the top-level value.
    let dec = Decoder::new(G4).with_max_depth(0);
    assert!(dec.decode_exact(&INT7).is_ok());
    assert!(dec.decode_exact(&hex("1c000000 00000000")).is_ok());
    too_deep(0, 8)(dec.decode(&hex("1c000000 01000000 00000000")).unwrap_err());
    // Raised: 2000 levels.
    let b = nested_arrays(0x1c, 2000, Some(&INT7));
    too_deep(1024, 8 * 1025)(from_bytes(G4, &b).unwrap_err());
    assert!(Decoder::new(G4)
        .with_max_depth(2000)
        .decode_exact(&b)
        .is_ok());
    too_deep(1999, 8 * 2000)(
        Decoder::new(G4)
            .with_max_depth(1999)
            .decode(&b)
            .unwrap_err(),
    );
}

#[test]
fn hundred_thousand_nested_arrays() {
    let b = nested_arrays(0x1c, 100_000, Some(&INT7));
    // Default: rejected at depth 1025, no stack overflow.
    too_deep(1024, 8 * 1025)(from_bytes(G4, &b).unwrap_err());
    too_deep(1024, 8 * 1025)(Decoder::new(G4).validate(&b).unwrap_err());
    let mut cursor = Decoder::new(G4).cursor(&b);
    assert!(cursor.read().is_err());
    // High limit: accepted; walk down to the Int through the views.
    let dec = Decoder::new(G4).with_max_depth(u32::MAX);
    let (mut v, used) = dec.decode_prefix(&b).unwrap();
    assert_eq!(used, b.len());
    let mut levels = 0;
    while let Some(a) = v.as_array() {
        assert_eq!(a.len(), 1);
        v = a.get(0).unwrap();
        levels += 1;
    }
    assert_eq!((levels, v), (100_000, VariantRef::Int(7)));
    assert_eq!(walk(&dec.decode(&b).unwrap()).unwrap(), 100_001);
}

/// `levels` nested arrays of two elements, `[[[…, 1], 1], 1]`: every level still has an item
/// pending while its child is read.
fn nested_with_siblings(levels: usize) -> Vec<u8> {
    let mut b = Vec::with_capacity(levels * 16 + 8);
    for _ in 0..levels {
        b.extend_from_slice(&hex("1c000000 02000000"));
    }
    b.extend_from_slice(&INT7);
    for _ in 0..levels {
        b.extend_from_slice(&hex("02000000 01000000"));
    }
    b
}

#[test]
fn deep_nesting_with_pending_siblings_default_limit() {
    let b = nested_with_siblings(1024);
    assert_eq!(Decoder::new(G4).validate(&b), Ok(b.len()));
    let b = nested_with_siblings(1025);
    too_deep(1024, 8 * 1025)(from_bytes(G4, &b).unwrap_err());
    let b = nested_with_siblings(100_000);
    too_deep(1024, 8 * 1025)(from_bytes(G4, &b).unwrap_err());
}

#[test]
fn deep_nesting_with_pending_siblings_high_limit() {
    // Levels that still have an item pending after a nested child need memory; without
    // allocation that is capped (MAX_PENDING_LEVELS = 2048) whatever max_depth says, and past
    // it decoding fails cleanly instead of overflowing the stack. Run on a 2 MiB thread (the
    // default for spawned threads) so the outcome does not depend on the harness.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let dec = Decoder::new(G4).with_max_depth(u32::MAX);
            let fits = nested_with_siblings(2000);
            let deep = nested_with_siblings(100_000);
            (
                dec.validate(&fits).map(|used| used == fits.len()),
                dec.validate(&deep).map_err(|e| e.kind()),
            )
        })
        .unwrap();
    let (fits, deep) = handle.join().unwrap();
    assert_eq!(fits, Ok(true));
    assert_eq!(deep, Err(ErrorKind::TooDeep { limit: 2048 }));
}

// ---------------------------------------------------------------------------------------------
// Trailing bytes and consumed length.
// ---------------------------------------------------------------------------------------------

#[test]
fn trailing_bytes() {
    let b = hex("02000000 05000000 aabbcc");
    for d in [G4, G3] {
        assert_eq!(from_bytes(d, &b), Ok(VariantRef::Int(5)));
        let err = from_bytes_exact(d, &b).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TrailingBytes { count: 3 });
        assert_eq!(err.kind().engine_code(), None);
        assert_eq!(err.offset(), 8);
        let dec = Decoder::new(d);
        assert_eq!(dec.decode_prefix(&b), Ok((VariantRef::Int(5), 8)));
        assert_eq!(dec.validate(&b), Ok(8));
        assert_eq!(dec.decode_exact(&b), Err(err));
    }
    // Values back to back, as a cursor sees them.
    let b = hex("04000000 02000000 68690000 00000000 1c000000 00000000");
    let dec = Decoder::new(G4);
    let (v, used) = dec.decode_prefix(&b).unwrap();
    assert_eq!((v.as_str(), used), (Some("hi"), 12));
    let (v, used) = dec.decode_prefix(&b[12..]).unwrap();
    assert_eq!((v, used), (VariantRef::Nil, 4));
    let (v, used) = dec.decode_prefix(&b[16..]).unwrap();
    assert_eq!((v.as_array().map(|a| a.len()), used), (Some(0), 8));
    let mut cursor = dec.cursor(&b);
    let mut positions = vec![];
    while !cursor.is_at_end() {
        cursor.skip().unwrap();
        positions.push(cursor.position());
    }
    assert_eq!(positions, [12, 16, 24]);
}

// ---------------------------------------------------------------------------------------------
// Deterministic sweep: flip every bit / truncate at every length, every dialect.
// ---------------------------------------------------------------------------------------------

fn sweep_inputs() -> Vec<Vec<u8>> {
    vec![
        // Godot 4: dict with nested array, string, 64-bit float, PackedByteArray at the end.
        hex("1b000000 02000000 04000000 01000000 61000000 \
             1c000000 02000000 02000000 01000000 04000000 03000000 78797a00 \
             02000000 02000000 1d000000 03000000 01020300"),
        // Godot 4: typed array of class, typed dict, signal, node path in an array.
        hex("1c000000 04000000 \
             1c000200 04000000 4e6f6465 01000000 18000100 2a00000000000000 \
             1b000500 02000000 02000000 01000000 02000000 01000000 02000000 02000000 \
             1a000000 01000000 73000000 0100000000000000 \
             16000000 01000080 01000000 03000000 01000000 61000000 01000000 62000000 01000000 63000000"),
        // Godot 4: full object with a nested full object and a PackedStringArray.
        hex("18000000 04000000 4e6f6465 02000000 \
             01000000 61000000 18000000 01000000 42000000 01000000 01000000 78000000 02000000 07000000 \
             01000000 62000000 22000000 02000000 03000000 61620000 01000000 00000000"),
        // Godot 3: array of pool arrays and a transform.
        hex("13000000 03000000 15000000 02000000 01000000 02000000 \
             17000000 01000000 02000000 61000000 \
             0d000000 0000803f 00000040 00004040 00008040 0000a040 0000c040 \
             0000e040 00000041 00001041 00002041 00003041 00004041"),
        // Pandemonium 5: typed array of objects with class name, packed typed array, Vector4.
        hex("1a000000 03000000 \
             1b000000 17000000 18000000 04000000 4e6f6465 01000000 17000100 2a00000000000000 \
             1c000000 02000000 01000000 02000000 05000000 \
             0b000000 0000803f 00000040 00004040 00008040"),
        // Double-precision Godot 4 transform and packed vector array.
        {
            let mut b = hex("1c000000 02000000");
            b.extend(f64_run("12000100", 1, 12));
            b.extend(f64_run("23000100 01000000", 1, 2));
            b
        },
    ]
}

/// Decodes with every dialect and both object settings; must not panic, and whatever is
/// accepted must be self-consistent and walk without errors.
fn decode_everywhere(bytes: &[u8]) -> usize {
    let mut accepted = 0;
    for d in Dialect::ALL {
        for allow in [false, true] {
            let dec = Decoder::new(d).with_allow_objects(allow).with_max_depth(8);
            match dec.decode_prefix(bytes) {
                Ok((v, used)) => {
                    accepted += 1;
                    assert!(used <= bytes.len());
                    assert_eq!(dec.validate(bytes), Ok(used));
                    if let Err(e) = walk(&v) {
                        panic!("{d}: decoded value fails while walking: {e}; input {bytes:02x?}");
                    }
                    let _ = format!("{v:?}");
                }
                Err(e) => {
                    assert_eq!(dec.validate(bytes), Err(e));
                    let _ = e.to_string();
                    let _ = e.kind().engine_code();
                }
            }
            let mut cursor = dec.cursor(bytes);
            while cursor.skip().is_ok() && !cursor.is_at_end() {}
        }
    }
    accepted
}

#[test]
fn sweep_bit_flips_and_truncations_every_dialect() {
    let mut accepted = 0usize;
    let mut total = 0usize;
    for input in sweep_inputs() {
        for len in 0..=input.len() {
            accepted += decode_everywhere(&input[..len]);
            total += 1;
        }
        let mut flipped = input.clone();
        for i in 0..flipped.len() * 8 {
            flipped[i / 8] ^= 1 << (i % 8);
            accepted += decode_everywhere(&flipped);
            flipped[i / 8] ^= 1 << (i % 8);
            total += 1;
        }
    }
    // Sanity: the sweep did decode things (each original input is valid in some dialect).
    assert!(accepted > total / 10, "{accepted} of {total}");
}
