//! The linear event walker and the iterators' hand-back (`Walked` / `resume`) against the
//! validating decoder and the plain recursive view walk, on every real-engine fixture in
//! every dialect and on hostile shapes.

mod support;

#[path = "support/events.rs"]
mod events;
#[path = "support/shapes.rs"]
mod shapes;

use events::{key, view_events};
use gdwire::read::{Event, Walker, MAX_PENDING_LEVELS};
use gdwire::{Decoder, Dialect, ErrorKind, VariantRef, VariantType};

/// Walks `bytes` with the walker and checks it against `validate` and both view walks.
fn check(dec: Decoder, bytes: &[u8], what: &str) {
    let mut walker = dec.walk(bytes);
    let mut got = Vec::new();
    let mut err = None;
    for e in walker.by_ref() {
        match e {
            Ok(e) => got.push(key(&e)),
            Err(e) => err = Some(e),
        }
    }
    assert!(walker.is_done(), "{what}");
    match dec.validate(bytes) {
        Ok(len) => {
            assert_eq!(err, None, "{what}: walker failed where validate did not");
            assert_eq!(walker.offset(), len, "{what}: walker length");
            assert_eq!(walker.open_containers(), 0, "{what}");
            let v = dec.decode(bytes).unwrap();
            let mut plain = Vec::new();
            assert!(view_events(v, false, &mut plain).unwrap().is_none());
            assert_eq!(got, plain, "{what}: walker vs views");
            let mut resumed = Vec::new();
            view_events(v, true, &mut resumed).unwrap();
            assert_eq!(resumed, plain, "{what}: resumed vs plain view walk");
        }
        Err(e) => assert_eq!(err, Some(e), "{what}: walker error vs validate error"),
    }
}

#[test]
fn walker_agrees_with_validate_and_views_on_every_fixture() {
    big_stack(every_fixture);
}

/// Under Miri (`.ci/run`), a sample: every 2nd engine value under 1 KiB, Godot 3 with objects
/// allowed, no truncations.
const MIRI: bool = cfg!(miri);

fn every_fixture() {
    let mut fixtures = support::values();
    if MIRI {
        // Parsing the 225 KB malformed.jsonl alone takes minutes in the interpreter.
        fixtures.retain(|f| f.bytes.len() < 1024);
        fixtures = fixtures.into_iter().step_by(2).collect();
    } else {
        fixtures.extend(support::malformed());
    }
    let dialects: &[Dialect] = if MIRI {
        &[Dialect::GODOT_3]
    } else {
        &Dialect::ALL
    };
    let mut checked = 0;
    for f in &fixtures {
        for &dialect in dialects {
            for objects in [false, true] {
                if MIRI && !objects {
                    continue;
                }
                let dec = Decoder::new(dialect).with_allow_objects(objects);
                check(
                    dec,
                    &f.bytes,
                    &format!("{} {dialect:?} objects={objects}", f.name),
                );
                // Every truncation too: errors mid-walk.
                if f.bytes.len() < 200 && !MIRI {
                    for cut in 0..f.bytes.len() {
                        check(dec, &f.bytes[..cut], &format!("{} cut {cut}", f.name));
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > if MIRI { 50 } else { 10_000 }, "{checked}");
}

#[test]
fn walker_events_for_a_known_value() {
    // {"a": [1, {}]} in Godot 4.
    let bytes = [
        0x1b, 0, 0, 0, 1, 0, 0, 0, // Dictionary, 1 entry
        4, 0, 0, 0, 1, 0, 0, 0, b'a', 0, 0, 0, // "a"
        0x1c, 0, 0, 0, 2, 0, 0, 0, // Array, 2
        2, 0, 0, 0, 1, 0, 0, 0, // 1
        0x1b, 0, 0, 0, 0, 0, 0, 0, // {}
    ];
    let events: Vec<_> = Decoder::new(Dialect::GODOT_4)
        .walk(&bytes)
        .map(|e| key(&e.unwrap()))
        .collect();
    assert_eq!(
        events,
        [
            "begin Dictionary 1",
            "String(\"a\")",
            "begin Array 2",
            "Int(1)",
            "begin Dictionary 0",
            "end",
            "end",
            "end"
        ]
    );
}

/// The view walks in `check` recurse per level; give them room.
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn hostile_shapes_walk_like_validate() {
    big_stack(hostile_shapes);
}

fn hostile_shapes() {
    let dec = Decoder::new(Dialect::GODOT_4);
    if MIRI {
        // The deep shapes below take minutes under Miri; the walker's logic is the same.
        for depth in [0, 1, 2, 33] {
            check(dec, &shapes::deep_with_siblings(depth), "siblings");
            check(dec, &shapes::deep_dict_keys(depth), "dict keys");
        }
        return;
    }
    // Around each place the skip's stack fills and it continues on the next (32, 64, 128, …).
    for depth in [
        0, 1, 2, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024,
    ] {
        check(dec, &shapes::deep_with_siblings(depth), "siblings");
        check(dec, &shapes::deep_chain(depth), "chain");
        check(dec, &shapes::deep_dict_keys(depth), "dict keys");
    }
    check(dec, &shapes::repeated_deep(100, 20), "repeated");
    check(dec, &shapes::many_nils(1000), "nils");
    check(dec, &shapes::many_short_strings(1000), "strings");
    check(dec, &shapes::huge_array_count(1000), "huge count");
    check(
        dec,
        &shapes::huge_packed_strings_count(1000),
        "huge strings count",
    );
    assert_eq!(
        dec.decode(&shapes::huge_packed_strings_count(0))
            .unwrap_err()
            .offset(),
        8
    );
    // One past the depth limit fails at the same place in both.
    for shape in [shapes::deep_with_siblings(1025), shapes::deep_chain(1025)] {
        let err = dec.validate(&shape).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TooDeep { limit: 1024 });
        check(dec, &shape, "too deep");
    }
    // Raised limit: the pending-level cap (fixed memory) hits both the same way.
    let deep = Decoder::new(Dialect::GODOT_4).with_max_depth(10_000);
    let over = shapes::deep_with_siblings(MAX_PENDING_LEVELS as usize + 1);
    assert_eq!(
        deep.validate(&over).unwrap_err().kind(),
        ErrorKind::TooDeep {
            limit: MAX_PENDING_LEVELS
        }
    );
    check(deep, &over, "pending cap");
    check(
        deep,
        &shapes::deep_with_siblings(MAX_PENDING_LEVELS as usize),
        "at cap",
    );
    check(deep, &shapes::deep_chain(5000), "long chain");
}

/// The skip and the re-encoding traversal use a small thread stack that does not grow with
/// the nesting: a value with the most pending levels there may be validates, and one at the
/// depth limit re-encodes, on a 256 KiB thread (in a debug build, whose frames are largest).
#[test]
fn deepest_values_need_a_small_bounded_stack() {
    if MIRI {
        return; // Minutes under Miri; the traversal is the one `hostile_shapes` checks.
    }
    let run = std::thread::Builder::new().stack_size(256 << 10).spawn(|| {
        let deep = Decoder::new(Dialect::GODOT_4).with_max_depth(10_000);
        let at_cap = shapes::deep_with_siblings(MAX_PENDING_LEVELS as usize);
        assert_eq!(deep.validate(&at_cap).unwrap(), at_cap.len());
        let dec = Decoder::new(Dialect::GODOT_4);
        let at_limit = shapes::deep_with_siblings(1024);
        let v = dec.decode(&at_limit).unwrap();
        let g3 = gdwire::write::to_vec(Dialect::GODOT_3, &v).unwrap();
        let back = Decoder::new(Dialect::GODOT_3).decode(&g3).unwrap();
        assert_eq!(
            gdwire::write::to_vec(Dialect::GODOT_4, &back).unwrap(),
            at_limit
        );
    });
    run.unwrap().join().unwrap();
}

#[test]
fn shapes_are_what_they_claim() {
    let dec = Decoder::new(Dialect::GODOT_4);
    let strings = shapes::many_short_strings(3);
    let v = dec.decode(&strings).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 3);
    let err = dec
        .validate(&shapes::huge_packed_strings_count(2))
        .unwrap_err();
    assert_eq!(err.offset(), 16, "{err}");
    assert_eq!(
        Decoder::new(Dialect::GODOT_4)
            .cursor(&shapes::huge_packed_strings_count(0))
            .peek_type()
            .unwrap(),
        VariantType::PackedStringArray
    );
    // The complete shapes are exactly one value.
    for shape in [
        shapes::deep_with_siblings,
        shapes::deep_chain,
        shapes::deep_dict_keys,
        shapes::many_nils,
        shapes::many_short_strings,
    ] {
        for n in [1, 2, 64] {
            let bytes = shape(n);
            assert_eq!(dec.validate(&bytes), Ok(bytes.len()));
        }
    }
    let keys = shapes::deep_dict_keys(2);
    let d = dec.decode(&keys).unwrap();
    let (k, v) = d.as_dictionary().unwrap().iter().next().unwrap();
    assert!(k.as_dictionary().is_some());
    assert_eq!(v, VariantRef::Int(1));
}

#[test]
fn small_stack_fails_cleanly_and_reset_reuses() {
    let dec = Decoder::new(Dialect::GODOT_4);
    let bytes = shapes::deep_with_siblings(40);
    let err = Walker::<'_, 8>::with_stack(dec, &bytes)
        .find_map(Result::err)
        .unwrap();
    assert_eq!(err.kind(), ErrorKind::TooDeep { limit: 8 });
    // A chain needs one level, however long.
    let chain = shapes::deep_chain(if MIRI { 50 } else { 500 });
    assert!(Walker::<'_, 1>::with_stack(dec, &chain).all(|e| e.is_ok()));
    let mut w = dec.walk(&bytes);
    let first: Vec<_> = w.by_ref().map(|e| key(&e.unwrap())).collect();
    w.reset(&bytes);
    let second: Vec<_> = w.by_ref().map(|e| key(&e.unwrap())).collect();
    assert_eq!(first, second);
    assert_eq!(first.len(), 40 + 40 + 1 + 40);
    // After an error the walk is over.
    let mut w = dec.walk(&bytes[..bytes.len() - 1]);
    assert!(w.by_ref().any(|e| e.is_err()));
    assert!(w.next().is_none() && w.is_done());
    // Events other than Begin/End for a full object.
    let obj = [
        24u8, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 1, 0, 0,
        0, // Object "Node", 1 prop
        1, 0, 0, 0, b'x', 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, // x = 7
    ];
    let dec = Decoder::new(Dialect::GODOT_4).with_allow_objects(true);
    let events: Vec<_> = dec.walk(&obj).map(|e| e.unwrap()).collect();
    assert!(matches!(events[0], Event::Begin(VariantRef::Object(_))));
    assert!(matches!(events[1], Event::Property(n) if n == "x"));
    assert_eq!(events[2], Event::Value(VariantRef::Int(7)));
    assert_eq!(events[3], Event::End);
    check(dec, &obj, "object");
    // Godot 4.3+ rejects a `script` property that is not a `res://` path: no `Property`
    // event for it; inside an array after a closed container, whose `End` comes first.
    let mut script = vec![
        28u8, 0, 0, 0, 2, 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    ];
    script.extend([24, 0, 0, 0, 10, 0, 0, 0]);
    script.extend(b"RefCounted\0\0");
    script.extend([
        2, 0, 0, 0, 1, 0, 0, 0, b'x', 0, 0, 0, 28, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    ]);
    script.extend([6, 0, 0, 0]);
    script.extend(b"script\0\0");
    for value in [[2u8, 0, 0, 0, 5, 0, 0, 0], [4, 0, 0, 0, 1, 0, 0, 0]] {
        let mut bytes = script.clone();
        bytes.extend(value);
        for dialect in [Dialect::GODOT_4_3, Dialect::GODOT_4_2] {
            let dec = Decoder::new(dialect).with_allow_objects(true);
            let walked: Vec<_> = dec.walk(&bytes).collect();
            let ok = dialect == Dialect::GODOT_4_2 && value[0] == 2;
            assert_eq!(walked.last().unwrap().is_ok(), ok, "{dialect:?}");
            let named = walked
                .iter()
                .any(|e| matches!(e, Ok(Event::Property(n)) if *n == "script"));
            assert_eq!(named, dialect == Dialect::GODOT_4_2, "{dialect:?}");
            check(dec, &bytes, "script property");
        }
    }
}

#[test]
fn resume_refuses_foreign_tokens() {
    let dec = Decoder::new(Dialect::GODOT_4);
    let a = shapes::deep_with_siblings(3);
    let b = a.clone();
    let va = dec.decode(&a).unwrap().as_array().unwrap();
    let vb = dec.decode(&b).unwrap().as_array().unwrap();
    let mut ita = va.iter();
    let mut itb = vb.iter();
    let child_a = ita.next().unwrap().as_array().unwrap();
    let child_b = itb.next().unwrap().as_array().unwrap();
    let mut ca = child_a.iter();
    assert!(ca.walked().is_none(), "not exhausted yet");
    ca.by_ref().for_each(drop);
    let token = ca.walked().unwrap();
    // Same bytes, other buffer: refused.
    assert!(!itb.resume(token));
    // Other decoder over the same buffer: refused.
    let other = Decoder::new(Dialect::GODOT_4).with_max_depth(5);
    let mut ito = other.decode(&a).unwrap().as_array().unwrap().iter();
    ito.next();
    assert!(!ito.resume(token));
    // Not the child handed out last (the parent moved on): refused.
    let mut moved = va.iter();
    moved.next();
    moved.next();
    assert!(!moved.resume(token));
    // The right parent accepts it once.
    assert!(ita.resume(token));
    assert!(!ita.resume(token));
    assert_eq!(ita.next().unwrap(), VariantRef::Int(1));
    let mut cb = child_b.iter();
    cb.by_ref().for_each(drop);
    assert!(itb.resume(cb.walked().unwrap()));
}
