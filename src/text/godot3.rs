//! Godot 3 `var2str` (`VariantWriter::write`, 3.2.3 `core/variant_parser.cpp`), checked
//! byte for byte against a real 3.2.3 engine, and the Pandemonium writer derived from it.

use core::fmt::Write;

use crate::math::{Color, Vector3};
use crate::read::{NodePathRef, ObjectRef, VariantRef};
use crate::text::escape::{write_escaped, write_plain, Escape};
use crate::text::number::{printf_g, NumBuf};
use crate::text::order::{rules_for, Keys};
use crate::text::{check_depth, TextError};
use crate::Dialect;

pub(crate) struct Godot3<'w, W: Write> {
    pub(crate) out: &'w mut W,
    pub(crate) dialect: Dialect,
    /// Pandemonium's writer: `rtos_fix` with `inf_neg`, `{\n}` for an empty dictionary, and
    /// its extra types.
    pub(crate) pandemonium: bool,
}

type Res = Result<(), TextError>;

/// A real as the 3.x writers print it: through `real_t` (`float`), then `rtosfix`.
fn real(v: f64, pandemonium: bool) -> NumBuf {
    let mut out = NumBuf::new();
    if v.is_nan() {
        // The conversion to float keeps the sign (x86), and glibc prints it.
        let s = match (pandemonium, v.is_sign_negative()) {
            (true, _) => "nan",
            (false, true) => "-nan",
            (false, false) => "nan",
        };
        let _ = out.write_str(s);
        return out;
    }
    let f = v as f32;
    if f == 0.0 {
        // Negative zero is written as 0 on purpose (avoids noisy diffs).
        let _ = out.write_str("0");
        return out;
    }
    if pandemonium && f.is_infinite() {
        let _ = out.write_str(if f > 0.0 { "inf" } else { "inf_neg" });
        return out;
    }
    printf_g(f64::from(f))
}

impl<W: Write> Godot3<'_, W> {
    fn s(&mut self, s: &str) -> Res {
        Ok(self.out.write_str(s)?)
    }

    fn real(&mut self, v: f64) -> Res {
        let buf = real(v, self.pandemonium);
        self.s(buf.as_str())
    }

    /// `rtosfix` of an integer component (Pandemonium's Vector2i & co. go through a double).
    fn int_real(&mut self, v: i32) -> Res {
        self.real(f64::from(v))
    }

    /// `Name( a, b, c )` with each component through `rtosfix`.
    fn reals(&mut self, name: &str, values: &[f64]) -> Res {
        self.s(name)?;
        self.s("( ")?;
        self.list(values)?;
        self.s(" )")
    }

    fn list(&mut self, values: &[f64]) -> Res {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            self.real(*v)?;
        }
        Ok(())
    }

    fn ints(&mut self, name: &str, values: &[i32]) -> Res {
        self.s(name)?;
        self.s("( ")?;
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            self.int_real(*v)?;
        }
        self.s(" )")
    }

    fn float(&mut self, v: f64) -> Res {
        let s = real(v, self.pandemonium);
        self.s(s.as_str())?;
        let special = match self.pandemonium {
            true => matches!(s.as_str(), "inf" | "inf_neg" | "nan"),
            false => matches!(s.as_str(), "inf" | "nan"),
        };
        if !special && !s.contains(b'.') && !s.contains(b'e') {
            self.s(".0")?;
        }
        Ok(())
    }

    fn node_path(&mut self, p: &NodePathRef<'_>) -> Res {
        self.s("NodePath(\"")?;
        write_node_path(self.out, p)?;
        self.s("\")")
    }

    fn name(&self, ty: crate::VariantType) -> &'static str {
        self.dialect.type_name(ty)
    }

    fn pool_header(&mut self, ty: crate::VariantType) -> Res {
        self.s(self.name(ty))?;
        self.s("( ")
    }

    pub(crate) fn value(&mut self, v: &VariantRef<'_>, depth: u32) -> Res {
        use VariantRef as V;
        check_depth(depth)?;
        match v {
            V::Nil => self.s("null"),
            V::Bool(b) => self.s(if *b { "true" } else { "false" }),
            V::Int(i) => Ok(write!(self.out, "{i}")?),
            V::Float(f) => self.float(*f),
            V::String(s) => {
                self.s("\"")?;
                write_escaped(self.out, *s, Escape::Multiline)?;
                self.s("\"")
            }
            V::StringName(s) => {
                self.s("@\"")?;
                write_escaped(self.out, *s, Escape::Full)?;
                self.s("\"")
            }
            V::Vector2(a, _) => self.reals("Vector2", &[a.x, a.y]),
            V::Vector2i(a) => self.ints("Vector2i", &[a.x, a.y]),
            V::Rect2(r, _) => {
                self.reals("Rect2", &[r.position.x, r.position.y, r.size.x, r.size.y])
            }
            V::Rect2i(r) => self.ints("Rect2i", &[r.position.x, r.position.y, r.size.x, r.size.y]),
            V::Vector3(a, _) => self.reals("Vector3", &[a.x, a.y, a.z]),
            V::Vector3i(a) => self.ints("Vector3i", &[a.x, a.y, a.z]),
            V::Vector4(a, _) => self.reals("Vector4", &[a.x, a.y, a.z, a.w]),
            V::Vector4i(a) => self.ints("Vector4i", &[a.x, a.y, a.z, a.w]),
            V::Transform2D(t, _) => self.reals(
                "Transform2D",
                &[t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y],
            ),
            V::Plane(p, _) => self.reals("Plane", &[p.normal.x, p.normal.y, p.normal.z, p.d]),
            V::Quaternion(q, _) => {
                let name = self.name(crate::VariantType::Quaternion);
                self.reals(name, &[q.x, q.y, q.z, q.w])
            }
            V::Aabb(b, _) => {
                let (p, s) = (b.position, b.size);
                self.reals("AABB", &[p.x, p.y, p.z, s.x, s.y, s.z])
            }
            V::Basis(b, _) => self.reals("Basis", &rows(&b.rows)),
            V::Transform3D(t, _) => {
                let r = rows(&t.basis.rows);
                let o = t.origin;
                let all = [
                    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], o.x, o.y, o.z,
                ];
                self.reals("Transform", &all)
            }
            V::Projection(p, _) => {
                // Pandemonium writes "Projection(" without the inner spaces.
                self.s("Projection(")?;
                let c = &p.columns;
                let all = [
                    c[0].x, c[0].y, c[0].z, c[0].w, c[1].x, c[1].y, c[1].z, c[1].w, c[2].x, c[2].y,
                    c[2].z, c[2].w, c[3].x, c[3].y, c[3].z, c[3].w,
                ];
                self.list(&all)?;
                self.s(")")
            }
            V::Color(c) => self.reals("Color", &color(c)),
            V::NodePath(p) => self.node_path(p),
            // The writer has no case for RID: nothing is written.
            V::Rid(_) => Ok(()),
            V::Object(o) => self.object(o, depth),
            // Not types of the 3.x dialects; written as Godot 4 would, for completeness.
            V::Callable => self.s("Callable()"),
            V::Signal(_) => self.s("Signal()"),
            V::Dictionary(d) => {
                let keys = Keys::new(self.dialect, rules_for(self.dialect));
                let entries = keys.entries(d, depth)?;
                self.s("{\n")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.s(",\n")?;
                    }
                    self.value(k, depth + 1)?;
                    self.s(": ")?;
                    self.value(v, depth + 1)?;
                }
                // 3.2.3 closes with "\n}" even when empty ("{\n\n}"); Pandemonium ends every
                // entry with a line break and closes with "}".
                if self.pandemonium && entries.is_empty() {
                    self.s("}")
                } else {
                    self.s("\n}")
                }
            }
            V::Array(a) => {
                self.s("[ ")?;
                for (i, e) in a.iter().enumerate() {
                    if i > 0 {
                        self.s(", ")?;
                    }
                    self.value(&e?, depth + 1)?;
                }
                self.s(" ]")
            }
            V::PackedByteArray(p) => {
                self.pool_header(v.variant_type())?;
                for (i, b) in p.as_bytes().iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(self.out, "{sep}{b}")?;
                }
                self.s(" )")
            }
            V::PackedInt32Array(p) => {
                self.pool_header(v.variant_type())?;
                for (i, x) in p.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(self.out, "{sep}{x}")?;
                }
                self.s(" )")
            }
            V::PackedInt64Array(p) => {
                self.pool_header(v.variant_type())?;
                for (i, x) in p.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(self.out, "{sep}{x}")?;
                }
                self.s(" )")
            }
            V::PackedFloat32Array(p) => {
                self.pool_header(v.variant_type())?;
                for (i, x) in p.iter().enumerate() {
                    if i > 0 {
                        self.s(", ")?;
                    }
                    self.real(x.into())?;
                }
                self.s(" )")
            }
            V::PackedFloat64Array(p) => {
                self.pool_header(v.variant_type())?;
                for (i, x) in p.iter().enumerate() {
                    if i > 0 {
                        self.s(", ")?;
                    }
                    self.real(x)?;
                }
                self.s(" )")
            }
            V::PackedStringArray(p) => {
                self.pool_header(v.variant_type())?;
                for (i, s) in p.iter().enumerate() {
                    self.s(if i > 0 { ", \"" } else { "\"" })?;
                    write_escaped(self.out, s, Escape::Full)?;
                    self.s("\"")?;
                }
                self.s(" )")
            }
            V::PackedVector2Array(p) => self.packed_reals(v, p.iter()),
            V::PackedVector3Array(p) => self.packed_reals(v, p.iter()),
            V::PackedVector4Array(p) => self.packed_reals(v, p.iter()),
            V::PackedColorArray(p) => {
                let items = p.iter().map(|c| c.map(f64::from));
                self.packed_reals(v, items)
            }
            V::PackedVector2iArray(p) => self.packed_ints(v, p.iter()),
            V::PackedVector3iArray(p) => self.packed_ints(v, p.iter()),
            V::PackedVector4iArray(p) => self.packed_ints(v, p.iter()),
        }
    }

    fn packed_reals<const N: usize>(
        &mut self,
        v: &VariantRef<'_>,
        items: impl Iterator<Item = [f64; N]>,
    ) -> Res {
        self.pool_header(v.variant_type())?;
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            self.list(&item)?;
        }
        self.s(" )")
    }

    fn packed_ints<const N: usize>(
        &mut self,
        v: &VariantRef<'_>,
        items: impl Iterator<Item = [i32; N]>,
    ) -> Res {
        self.pool_header(v.variant_type())?;
        for (i, item) in items.enumerate() {
            for (j, x) in item.iter().enumerate() {
                if i > 0 || j > 0 {
                    self.s(", ")?;
                }
                self.int_real(*x)?;
            }
        }
        self.s(" )")
    }

    fn object(&mut self, o: &ObjectRef<'_>, depth: u32) -> Res {
        let (dialect, pandemonium) = (self.dialect, self.pandemonium);
        write_object(self.out, o, depth, |out, v, d| {
            Godot3 {
                out,
                dialect,
                pandemonium,
            }
            .value(v, d)
        })
    }
}

/// The rows of a basis in the order the writers print them (`elements[i][j]`).
fn rows(r: &[Vector3; 3]) -> [f64; 9] {
    [
        r[0].x, r[0].y, r[0].z, r[1].x, r[1].y, r[1].z, r[2].x, r[2].y, r[2].z,
    ]
}

fn color(c: &Color) -> [f64; 4] {
    [c.r, c.g, c.b, c.a].map(f64::from)
}

/// `NodePath::operator String()`, `c_escape`d: `/` first when absolute, names joined by `/`,
/// each subname after a `:`.
pub(crate) fn write_node_path<W: Write>(out: &mut W, p: &NodePathRef<'_>) -> core::fmt::Result {
    if p.is_absolute() {
        out.write_str("/")?;
    }
    for (i, name) in p.names().enumerate() {
        if i > 0 {
            out.write_str("/")?;
        }
        write_escaped(out, name, Escape::Full)?;
    }
    for sub in p.subnames() {
        out.write_str(":")?;
        write_escaped(out, sub, Escape::Full)?;
    }
    Ok(())
}

/// The generic object form shared by every engine line: `Object(Class,"prop":value,...)\n`.
///
/// An id-form object decodes to an `EncodedObjectAsID`, whose stored properties are its
/// `object_id` and the `script` every object has. A full object is printed with the properties
/// the bytes carry; the engine prints those of the instance it created, which are the same
/// unless a script adds non-exported variables (see docs/text.md).
pub(crate) fn write_object<W: Write>(
    out: &mut W,
    o: &ObjectRef<'_>,
    depth: u32,
    mut value: impl FnMut(&mut W, &VariantRef<'_>, u32) -> Res,
) -> Res {
    match o {
        ObjectRef::Id(0) | ObjectRef::Null => out.write_str("null")?,
        ObjectRef::Id(id) => writeln!(
            out,
            "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
            *id as i64
        )?,
        ObjectRef::Full(full) => {
            out.write_str("Object(")?;
            write_plain(out, full.class())?;
            out.write_str(",")?;
            for (i, prop) in full.properties().enumerate() {
                let (name, v) = prop?;
                out.write_str(if i > 0 { ",\"" } else { "\"" })?;
                write_plain(out, name)?;
                out.write_str("\":")?;
                value(out, &v, depth + 1)?;
            }
            out.write_str(")\n")?;
        }
    }
    Ok(())
}
