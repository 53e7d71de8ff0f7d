//! The event stream of a value built from the lazy views (recursively), to compare with
//! `gdwire::read::Walker`. Shared by the walker tests and the fuzz targets.
#![allow(dead_code)]

use gdwire::read::{Event, Walked};
use gdwire::{ObjectRef, VariantRef};

/// An event reduced to something comparable (NaN-safe): containers by type and length,
/// everything else by its `Debug` form.
pub fn key(e: &Event<'_>) -> String {
    match e {
        Event::Begin(v) => format!("begin {:?} {}", v.variant_type(), len(v)),
        // A node path by what it means: the writer writes canonical flag words, so raw flag
        // bits the engine ignores do not survive a re-encoding.
        Event::Value(VariantRef::NodePath(p)) => format!(
            "NodePath(absolute={} names={:?} subnames={:?})",
            p.is_absolute(),
            p.names().collect::<Vec<_>>(),
            p.subnames().collect::<Vec<_>>()
        ),
        Event::Value(v) => format!("{v:?}"),
        Event::Property(name) => format!("prop {name:?}"),
        Event::End => "end".into(),
    }
}

fn len(v: &VariantRef<'_>) -> usize {
    match v {
        VariantRef::Array(a) => a.len(),
        VariantRef::Dictionary(d) => d.len(),
        VariantRef::Object(ObjectRef::Full(o)) => o.len(),
        _ => 0,
    }
}

/// Appends `v`'s events. With `resume`, every walked child is handed back to its parent
/// iterator (the linear way); without, iterators skip walked children again. Returns the
/// child's `Walked` token (for the caller to hand back), `Err` on the first decoding error.
pub fn view_events<'a>(
    v: VariantRef<'a>,
    resume: bool,
    out: &mut Vec<String>,
) -> Result<Option<Walked<'a>>, gdwire::Error> {
    match v {
        VariantRef::Array(a) => {
            out.push(key(&Event::Begin(v)));
            let mut it = a.iter();
            while let Some(item) = it.next() {
                if let Some(w) = view_events(item, resume, out)? {
                    assert!(it.resume(w), "array refused its own child");
                }
            }
            out.push("end".into());
            Ok(if resume { it.walked() } else { None })
        }
        VariantRef::Dictionary(d) if resume => {
            // Keys and values one at a time, so container keys can be handed back too.
            out.push(key(&Event::Begin(v)));
            let mut it = d.keys_and_values();
            while let Some(item) = it.next() {
                if let Some(w) = view_events(item, resume, out)? {
                    assert!(it.resume(w), "dictionary refused its own child");
                }
            }
            out.push("end".into());
            Ok(it.walked())
        }
        VariantRef::Dictionary(d) => {
            out.push(key(&Event::Begin(v)));
            for entry in d.iter() {
                let (k, val) = entry;
                view_events(k, false, out)?;
                view_events(val, false, out)?;
            }
            out.push("end".into());
            Ok(None)
        }
        VariantRef::Object(ObjectRef::Full(o)) => {
            out.push(key(&Event::Begin(v)));
            let mut it = o.properties();
            while let Some(p) = it.next() {
                let (name, val) = p;
                out.push(key(&Event::Property(name)));
                if let Some(w) = view_events(val, resume, out)? {
                    assert!(it.resume(w), "object refused its own child");
                }
            }
            out.push("end".into());
            Ok(if resume { it.walked() } else { None })
        }
        leaf => {
            out.push(key(&Event::Value(leaf)));
            Ok(None)
        }
    }
}

/// Event keys with the writer's documented normalisations applied: a null object (id 0, or a
/// full object with an empty class) is written as Nil, as the engine does.
pub fn normalized(keys: Vec<String>) -> Vec<String> {
    keys.into_iter()
        .map(|k| match k.as_str() {
            "Object(Id(0))" | "Object(Null)" => "Nil".into(),
            _ => k,
        })
        .collect()
}
