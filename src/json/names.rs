//! Type names, container element types and byte strings in the JSON form.

use alloc::vec::Vec;
use core::fmt::{self, Write};

use crate::dialect::Dialect;
use crate::read::{ContainerType, StrRef};
use crate::variant_type::VariantType;

/// The logical type named `name` in `dialect`: the dialect's own spelling (`PoolIntArray`,
/// `Transform`, `Quat` in Godot 3) or the Godot 4 spelling, if the dialect has the type.
pub(crate) fn type_by_name(dialect: Dialect, name: &str) -> Option<VariantType> {
    VariantType::ALL
        .iter()
        .copied()
        .find(|&ty| dialect.supports(ty) && (dialect.type_name(ty) == name || ty.name() == name))
}

/// Writes `s` as a quoted JSON string.
pub(crate) fn write_str<W: Write>(out: &mut W, s: &str) -> fmt::Result {
    write_prefixed_str(out, "", s)
}

/// Writes `prefix` then `s` as one quoted JSON string (`prefix` needs no escaping).
pub(crate) fn write_prefixed_str<W: Write>(out: &mut W, prefix: &str, s: &str) -> fmt::Result {
    out.write_char('"')?;
    out.write_str(prefix)?;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(out, "\\u{b:04x}")?;
        } else {
            out.write_str(esc)?;
        }
        start = i + 1;
    }
    out.write_str(&s[start..])?;
    out.write_char('"')
}

/// Writes lowercase hex of `bytes` (no quotes).
pub(crate) fn write_hex<W: Write>(out: &mut W, bytes: &[u8]) -> fmt::Result {
    for b in bytes {
        write!(out, "{b:02x}")?;
    }
    Ok(())
}

/// Writes wire text: a JSON string when it is UTF-8, else `{"hex":"…"}`.
pub(crate) fn write_bytes_name<W: Write>(out: &mut W, raw: &[u8]) -> fmt::Result {
    match core::str::from_utf8(raw) {
        Ok(s) => write_str(out, s),
        Err(_) => {
            out.write_str("{\"hex\":\"")?;
            write_hex(out, raw)?;
            out.write_str("\"}")
        }
    }
}

/// Decodes lowercase or uppercase hex.
pub(crate) fn parse_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.as_bytes()
        .chunks_exact(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

/// Writes a container element type: a type name, class name or `res://` script path as a
/// string, or an object (`{"builtin":…}`, `{"class":…}`, `{"script":…}`, `{"id":…}`) where
/// the string form would be read back as something else.
pub(crate) fn write_container_type<W: Write>(
    out: &mut W,
    dialect: Dialect,
    t: &ContainerType<'_>,
) -> fmt::Result {
    match *t {
        ContainerType::Builtin(VariantType::Object) => out.write_str("{\"builtin\":\"Object\"}"),
        ContainerType::Builtin(ty) => write_str(out, dialect.type_name(ty)),
        ContainerType::UnknownBuiltin(id) => write!(out, "{{\"id\":{id}}}"),
        ContainerType::ClassName(name) => {
            let plain = match name.raw() {
                raw if raw.starts_with(b"res://") => false,
                raw => core::str::from_utf8(raw)
                    .map(|s| s == "Object" || type_by_name(dialect, s).is_none())
                    .unwrap_or(false),
            };
            if plain {
                write_bytes_name(out, name.raw())
            } else {
                out.write_str("{\"class\":")?;
                write_bytes_name(out, name.raw())?;
                out.write_char('}')
            }
        }
        ContainerType::Script(path) => {
            if path.raw().starts_with(b"res://") && core::str::from_utf8(path.raw()).is_ok() {
                write_bytes_name(out, path.raw())
            } else {
                out.write_str("{\"script\":")?;
                write_bytes_name(out, path.raw())?;
                out.write_char('}')
            }
        }
    }
}

/// Text bytes from a JSON string or `{"hex": "…"}`.
pub(crate) fn name_bytes(v: &serde_json::Value) -> Option<Vec<u8>> {
    match v {
        serde_json::Value::String(s) => Some(s.as_bytes().to_vec()),
        serde_json::Value::Object(m) if m.len() == 1 => parse_hex(m.get("hex")?.as_str()?),
        _ => None,
    }
}

/// Reads a container element type (the inverse of [`write_container_type`]); its name, if
/// any, is kept in `buf`. `"Object"` names the class, as in the engine; `{"builtin":
/// "Object"}` is `Object` as a builtin id.
pub(crate) fn parse_container_type<'b>(
    dialect: Dialect,
    v: &serde_json::Value,
    buf: &'b mut Vec<u8>,
) -> Option<ContainerType<'b>> {
    use serde_json::Value;
    enum Named {
        Class,
        Script,
    }
    let (named, bytes) = match v {
        Value::String(s) => {
            if s != "Object" {
                if let Some(ty) = type_by_name(dialect, s) {
                    return Some(ContainerType::Builtin(ty));
                }
            }
            let named = if s != "Object" && s.starts_with("res://") {
                Named::Script
            } else {
                Named::Class
            };
            (named, s.as_bytes().to_vec())
        }
        Value::Object(m) if m.len() == 1 => {
            let (k, v) = m.iter().next()?;
            match k.as_str() {
                "builtin" if v.as_str() == Some("Object") => {
                    return Some(ContainerType::Builtin(VariantType::Object))
                }
                "builtin" => return type_by_name(dialect, v.as_str()?).map(ContainerType::Builtin),
                "id" => {
                    let id = u32::try_from(v.as_u64()?).ok()?;
                    return Some(ContainerType::UnknownBuiltin(id));
                }
                "class" => (Named::Class, name_bytes(v)?),
                "script" => (Named::Script, name_bytes(v)?),
                _ => return None,
            }
        }
        _ => return None,
    };
    *buf = bytes;
    let name = StrRef::new(buf, dialect.text_rules());
    Some(match named {
        Named::Class => ContainerType::ClassName(name),
        Named::Script => ContainerType::Script(name),
    })
}
