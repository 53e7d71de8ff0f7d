//! Godot 4 `var_to_str` (`VariantWriter::write`, `core/variant/variant_parser.cpp`, with
//! `p_compat = true` as `var_to_str` calls it). Derived from source; see docs/text.md.

use core::fmt::Write;

use crate::read::{ContainerType, VariantRef};
use crate::text::escape::{write_escaped, Escape};
use crate::text::godot3::{write_node_path, write_object};
use crate::text::number::{printf_g, shortest, NumBuf};
use crate::text::order::{rules_for, Keys};
use crate::text::{check_depth, TextError};
use crate::{Dialect, VariantType};

pub(crate) struct Godot4<'w, W: Write> {
    pub(crate) out: &'w mut W,
    pub(crate) dialect: Dialect,
}

type Res = Result<(), TextError>;

/// `rtos_fix`. 4.4+ (`modern`): Grisu2 shortest digits, of the `f32` when the value is one
/// exactly; `-inf` stays `inf_neg` in compat mode. 4.0 – 4.3: `%lg`.
fn rtos_fix(v: f64, modern: bool) -> NumBuf {
    let mut out = NumBuf::new();
    if v == 0.0 {
        let _ = out.write_str("0");
        return out;
    }
    if v == f64::NEG_INFINITY {
        let _ = out.write_str("inf_neg");
        return out;
    }
    if modern {
        let single = !v.is_nan() && f64::from(v as f32) == v;
        return shortest(v, single);
    }
    if v.is_nan() {
        let _ = out.write_str("nan");
        return out;
    }
    printf_g(v)
}

impl<W: Write> Godot4<'_, W> {
    fn modern(&self) -> bool {
        // Grisu2 and StringLikeVariantOrder arrived with 4.4, the first line with typed
        // dictionaries.
        self.dialect.has_typed_dictionaries()
    }

    fn s(&mut self, s: &str) -> Res {
        Ok(self.out.write_str(s)?)
    }

    fn real(&mut self, v: f64) -> Res {
        let buf = rtos_fix(v, self.modern());
        self.s(buf.as_str())
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

    fn reals(&mut self, name: &str, values: &[f64]) -> Res {
        self.s(name)?;
        self.s("(")?;
        self.list(values)?;
        self.s(")")
    }

    fn ints<T: core::fmt::Display>(&mut self, name: &str, values: &[T]) -> Res {
        self.s(name)?;
        self.s("(")?;
        for (i, v) in values.iter().enumerate() {
            let sep = if i > 0 { ", " } else { "" };
            write!(self.out, "{sep}{v}")?;
        }
        self.s(")")
    }

    fn float(&mut self, v: f64) -> Res {
        let modern = self.modern();
        let s = rtos_fix(v, modern);
        self.s(s.as_str())?;
        let special = match modern {
            true => matches!(s.as_str(), "inf" | "-inf" | "nan"),
            false => matches!(s.as_str(), "inf" | "inf_neg" | "nan"),
        };
        if !special && !s.contains(b'.') && !s.contains(b'e') && !s.contains(b'E') {
            self.s(".0")?;
        }
        Ok(())
    }

    /// The name a typed container prints for its element type.
    fn container_type(&mut self, t: &ContainerType<'_>, nil: &str) -> Res {
        match t {
            ContainerType::Builtin(VariantType::Nil) => self.s(nil),
            ContainerType::Builtin(ty) => self.s(ty.name()),
            ContainerType::ClassName(name) => {
                Ok(crate::text::escape::write_plain(self.out, *name)?)
            }
            ContainerType::Script(path) => {
                // A script type prints as a reference to its resource path.
                self.s("Resource(\"")?;
                write_escaped(self.out, *path, Escape::Multiline)?;
                self.s("\")")
            }
            ContainerType::UnknownBuiltin(id) => Ok(write!(self.out, "{id}")?),
        }
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
                self.s("&\"")?;
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
            V::Plane(p, _) => self.reals("Plane", &[p.normal.x, p.normal.y, p.normal.z, p.d]),
            V::Aabb(b, _) => {
                let (p, s) = (b.position, b.size);
                self.reals("AABB", &[p.x, p.y, p.z, s.x, s.y, s.z])
            }
            V::Quaternion(q, _) => self.reals("Quaternion", &[q.x, q.y, q.z, q.w]),
            V::Transform2D(t, _) => self.reals(
                "Transform2D",
                &[t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y],
            ),
            V::Basis(b, _) => {
                let r = &b.rows;
                self.reals(
                    "Basis",
                    &[
                        r[0].x, r[0].y, r[0].z, r[1].x, r[1].y, r[1].z, r[2].x, r[2].y, r[2].z,
                    ],
                )
            }
            V::Transform3D(t, _) => {
                let (r, o) = (&t.basis.rows, t.origin);
                self.reals(
                    "Transform3D",
                    &[
                        r[0].x, r[0].y, r[0].z, r[1].x, r[1].y, r[1].z, r[2].x, r[2].y, r[2].z,
                        o.x, o.y, o.z,
                    ],
                )
            }
            V::Projection(p, _) => {
                let c = &p.columns;
                self.reals(
                    "Projection",
                    &[
                        c[0].x, c[0].y, c[0].z, c[0].w, c[1].x, c[1].y, c[1].z, c[1].w, c[2].x,
                        c[2].y, c[2].z, c[2].w, c[3].x, c[3].y, c[3].z, c[3].w,
                    ],
                )
            }
            V::Color(c) => self.reals("Color", &[c.r, c.g, c.b, c.a].map(f64::from)),
            V::NodePath(p) => {
                self.s("NodePath(\"")?;
                write_node_path(self.out, p)?;
                self.s("\")")
            }
            V::Rid(id) => match id.unwrap_or(0) {
                0 => self.s("RID()"),
                id => Ok(write!(self.out, "RID({id})")?),
            },
            // Not stored, but written so that assignments are never empty.
            V::Signal(_) => self.s("Signal()"),
            V::Callable => self.s("Callable()"),
            V::Object(o) => {
                let dialect = self.dialect;
                write_object(self.out, o, depth, |out, v, d| {
                    Godot4 { out, dialect }.value(v, d)
                })
            }
            V::Dictionary(d) => {
                let typed = d.key_type().is_some() || d.value_type().is_some();
                if typed {
                    self.s("Dictionary[")?;
                    let any = ContainerType::Builtin(VariantType::Nil);
                    self.container_type(&d.key_type().unwrap_or(any), "Variant")?;
                    self.s(", ")?;
                    self.container_type(&d.value_type().unwrap_or(any), "Variant")?;
                    self.s("](")?;
                }
                let keys = Keys::new(self.dialect, rules_for(self.dialect));
                let entries = keys.entries(d, depth)?;
                if entries.is_empty() {
                    self.s("{}")?;
                } else {
                    self.s("{\n")?;
                    for (i, (k, v)) in entries.iter().enumerate() {
                        self.value(k, depth + 1)?;
                        self.s(": ")?;
                        self.value(v, depth + 1)?;
                        self.s(if i + 1 < entries.len() { ",\n" } else { "\n" })?;
                    }
                    self.s("}")?;
                }
                if typed {
                    self.s(")")?;
                }
                Ok(())
            }
            V::Array(a) => {
                let typed = match a.element_type() {
                    None | Some(ContainerType::Builtin(VariantType::Nil)) => None,
                    Some(t) => Some(t),
                };
                if let Some(t) = &typed {
                    self.s("Array[")?;
                    self.container_type(t, "Nil")?;
                    self.s("](")?;
                }
                self.s("[")?;
                for (i, e) in a.iter().enumerate() {
                    if i > 0 {
                        self.s(", ")?;
                    }
                    self.value(&e?, depth + 1)?;
                }
                self.s("]")?;
                if typed.is_some() {
                    self.s(")")?;
                }
                Ok(())
            }
            V::PackedByteArray(p) => self.ints("PackedByteArray", p.as_bytes()),
            V::PackedInt32Array(p) => {
                self.s("PackedInt32Array(")?;
                for (i, x) in p.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(self.out, "{sep}{x}")?;
                }
                self.s(")")
            }
            V::PackedInt64Array(p) => {
                self.s("PackedInt64Array(")?;
                for (i, x) in p.iter().enumerate() {
                    let sep = if i > 0 { ", " } else { "" };
                    write!(self.out, "{sep}{x}")?;
                }
                self.s(")")
            }
            V::PackedFloat32Array(p) => {
                self.packed("PackedFloat32Array", p.iter().map(|x| [f64::from(x)]))
            }
            V::PackedFloat64Array(p) => self.packed("PackedFloat64Array", p.iter().map(|x| [x])),
            V::PackedStringArray(p) => {
                self.s("PackedStringArray(")?;
                for (i, s) in p.iter().enumerate() {
                    self.s(if i > 0 { ", \"" } else { "\"" })?;
                    write_escaped(self.out, s, Escape::Full)?;
                    self.s("\"")?;
                }
                self.s(")")
            }
            V::PackedVector2Array(p) => self.packed("PackedVector2Array", p.iter()),
            V::PackedVector3Array(p) => self.packed("PackedVector3Array", p.iter()),
            V::PackedVector4Array(p) => self.packed("PackedVector4Array", p.iter()),
            V::PackedColorArray(p) => {
                self.packed("PackedColorArray", p.iter().map(|c| c.map(f64::from)))
            }
            // Pandemonium-only types; never decoded in a Godot 4 dialect.
            V::PackedVector2iArray(p) => self.packed_ints("PackedVector2iArray", p.iter()),
            V::PackedVector3iArray(p) => self.packed_ints("PackedVector3iArray", p.iter()),
            V::PackedVector4iArray(p) => self.packed_ints("PackedVector4iArray", p.iter()),
        }
    }

    fn packed<const N: usize>(&mut self, name: &str, items: impl Iterator<Item = [f64; N]>) -> Res {
        self.s(name)?;
        self.s("(")?;
        for (i, item) in items.enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            self.list(&item)?;
        }
        self.s(")")
    }

    fn packed_ints<const N: usize>(
        &mut self,
        name: &str,
        items: impl Iterator<Item = [i32; N]>,
    ) -> Res {
        self.s(name)?;
        self.s("(")?;
        for (i, item) in items.enumerate() {
            for (j, x) in item.iter().enumerate() {
                let sep = if i > 0 || j > 0 { ", " } else { "" };
                write!(self.out, "{sep}{x}")?;
            }
        }
        self.s(")")
    }
}
