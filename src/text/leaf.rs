//! Every value but arrays, dictionaries and objects. The engines' writers share these cases;
//! numbers, parentheses and spellings come from the [`Format`].

use core::fmt::Write;

use crate::math::Vector3;
use crate::read::{NodePathRef, VariantRef};
use crate::text::base64;
use crate::text::escape::{write_escaped, Escape};
use crate::text::format::{Format, Res};

/// Writes a value that is not a container (containers are written by `walk`).
pub(crate) fn write_leaf<W: Write, F: Format>(out: &mut W, f: &F, v: &VariantRef<'_>) -> Res {
    Leaf { out, f }.value(v)
}

struct Leaf<'o, W, F> {
    out: &'o mut W,
    f: &'o F,
}

impl<W: Write, F: Format> Leaf<'_, W, F> {
    fn s(&mut self, s: &str) -> Res {
        Ok(self.out.write_str(s)?)
    }

    fn real(&mut self, v: f64) -> Res {
        let text = self.f.real(v);
        self.s(text.as_str())
    }

    fn int(&mut self, v: i32) -> Res {
        let text = self.f.int(v);
        self.s(text.as_str())
    }

    fn float(&mut self, v: f64) -> Res {
        let text = self.f.real(v);
        self.s(text.as_str())?;
        let plain = !text.contains(b'.') && !text.contains(b'e') && !text.contains(b'E');
        if plain && !self.f.bare_float(text.as_str()) {
            self.s(".0")?;
        }
        Ok(())
    }

    fn quoted(&mut self, prefix: &str, s: crate::read::StrRef<'_>, escape: Escape) -> Res {
        self.s(prefix)?;
        write_escaped(self.out, s, escape)?;
        self.s("\"")
    }

    /// `items` joined by `", "`.
    fn each<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut one: impl FnMut(&mut Self, T) -> Res,
    ) -> Res {
        for (i, x) in items.into_iter().enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            one(self, x)?;
        }
        Ok(())
    }

    /// `Name( items )` with the dialect's type name and parentheses.
    fn call<T>(
        &mut self,
        v: &VariantRef<'_>,
        items: impl IntoIterator<Item = T>,
        one: impl FnMut(&mut Self, T) -> Res,
    ) -> Res {
        let (open, close) = self.f.parens();
        self.s(self.f.dialect().type_name(v.variant_type()))?;
        self.s(open)?;
        self.each(items, one)?;
        self.s(close)
    }

    fn reals<const N: usize>(&mut self, v: &VariantRef<'_>, values: [f64; N]) -> Res {
        self.call(v, values, Self::real)
    }

    fn ints<const N: usize>(&mut self, v: &VariantRef<'_>, values: [i32; N]) -> Res {
        self.call(v, values, Self::int)
    }

    fn display<T: core::fmt::Display>(&mut self, x: T) -> Res {
        Ok(write!(self.out, "{x}")?)
    }

    fn value(&mut self, v: &VariantRef<'_>) -> Res {
        use VariantRef as V;
        match v {
            V::Nil => self.s("null"),
            V::Bool(b) => self.s(if *b { "true" } else { "false" }),
            V::Int(i) => self.display(i),
            V::Float(x) => self.float(*x),
            V::String(s) => self.quoted("\"", *s, Escape::Multiline),
            V::StringName(s) => self.quoted(self.f.string_name(), *s, self.f.c_escape()),
            V::Vector2(a) => {
                let a = a.get();
                self.reals(v, [a.x, a.y])
            }
            V::Vector2i(a) => self.ints(v, [a.x, a.y]),
            V::Rect2(r) => {
                let r = r.get();
                self.reals(v, [r.position.x, r.position.y, r.size.x, r.size.y])
            }
            V::Rect2i(r) => self.ints(v, [r.position.x, r.position.y, r.size.x, r.size.y]),
            V::Vector3(a) => {
                let a = a.get();
                self.reals(v, [a.x, a.y, a.z])
            }
            V::Vector3i(a) => self.ints(v, [a.x, a.y, a.z]),
            V::Vector4(a) => {
                let a = a.get();
                self.reals(v, [a.x, a.y, a.z, a.w])
            }
            V::Vector4i(a) => self.ints(v, [a.x, a.y, a.z, a.w]),
            V::Transform2D(t) => {
                let t = t.get();
                self.reals(v, [t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y])
            }
            V::Plane(p) => {
                let p = p.get();
                self.reals(v, [p.normal.x, p.normal.y, p.normal.z, p.d])
            }
            V::Quaternion(q) => {
                let q = q.get();
                self.reals(v, [q.x, q.y, q.z, q.w])
            }
            V::Aabb(b) => {
                let b = b.get();
                let (p, s) = (b.position, b.size);
                self.reals(v, [p.x, p.y, p.z, s.x, s.y, s.z])
            }
            V::Basis(b) => {
                let b = b.get();
                self.reals(v, rows(&b.rows))
            }
            V::Transform3D(t) => {
                let t = t.get();
                let (r, o) = (rows(&t.basis.rows), t.origin);
                let all = [
                    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], o.x, o.y, o.z,
                ];
                self.reals(v, all)
            }
            V::Projection(p) => {
                let p = p.get();
                // Pandemonium writes "Projection(" without the inner spaces, as Godot 4 does.
                self.s("Projection(")?;
                self.each(
                    p.columns.iter().flat_map(|c| [c.x, c.y, c.z, c.w]),
                    Self::real,
                )?;
                self.s(")")
            }
            V::Color(c) => self.reals(v, [c.r, c.g, c.b, c.a].map(f64::from)),
            V::NodePath(p) => {
                self.s("NodePath(\"")?;
                write_node_path(self.out, p, self.f.c_escape(), self.f.joins_subnames())?;
                self.s("\")")
            }
            V::Rid(id) => self.f.rid(self.out, *id),
            // Not stored on the wire, but written so that assignments are never empty.
            V::Callable | V::Signal(_) if !self.f.callables_print() => Ok(()),
            V::Callable => self.s("Callable()"),
            V::Signal(_) => self.s("Signal()"),
            // Written by `walk`; never passed here.
            V::Object(_) | V::Dictionary(_) | V::Array(_) => Ok(()),
            V::PackedByteArray(p) if self.f.base64_bytes() => {
                // One quoted base64 string; none for an empty array.
                let bytes = Some(p.as_bytes()).filter(|b| !b.is_empty());
                self.call(v, bytes, |l, b| {
                    l.s("\"")?;
                    base64::encode(l.out, b)?;
                    l.s("\"")
                })
            }
            V::PackedByteArray(p) => self.call(v, p.as_bytes(), Self::display),
            V::PackedInt32Array(p) => self.call(v, p.iter(), Self::display),
            V::PackedInt64Array(p) => self.call(v, p.iter(), Self::display),
            V::PackedFloat32Array(p) => self.call(v, p.iter().map(f64::from), Self::real),
            V::PackedFloat64Array(p) => self.call(v, p.iter(), Self::real),
            V::PackedStringArray(p) => {
                self.call(v, p.iter(), |l, s| l.quoted("\"", s, l.f.c_escape()))
            }
            V::PackedVector2Array(p) => self.call(v, p.iter().flatten(), Self::real),
            V::PackedVector3Array(p) => self.call(v, p.iter().flatten(), Self::real),
            V::PackedVector4Array(p) => self.call(v, p.iter().flatten(), Self::real),
            V::PackedColorArray(p) => self.call(v, p.iter().flatten().map(f64::from), Self::real),
            // Pandemonium-only types.
            V::PackedVector2iArray(p) => self.call(v, p.iter().flatten(), Self::int),
            V::PackedVector3iArray(p) => self.call(v, p.iter().flatten(), Self::int),
            V::PackedVector4iArray(p) => self.call(v, p.iter().flatten(), Self::int),
        }
    }
}

/// The rows of a basis in the order the writers print them (`elements[i][j]`).
fn rows(r: &[Vector3; 3]) -> [f64; 9] {
    [
        r[0].x, r[0].y, r[0].z, r[1].x, r[1].y, r[1].z, r[2].x, r[2].y, r[2].z,
    ]
}

/// `NodePath::operator String()`, escaped by `escape`: `/` first when absolute, names joined
/// by `/`, each subname after a `:` (with `joined`, the subnames joined by `:` after one `:`,
/// and nothing when that join is empty: the same text but for one empty subname).
fn write_node_path<W: Write>(
    out: &mut W,
    p: &NodePathRef<'_>,
    escape: Escape,
    joined: bool,
) -> core::fmt::Result {
    if p.is_absolute() {
        out.write_str("/")?;
    }
    for (i, name) in p.names().enumerate() {
        if i > 0 {
            out.write_str("/")?;
        }
        write_escaped(out, name, escape)?;
    }
    let empty_join = p.subname_count() == 1 && p.subnames().all(|s| s.bytes().is_empty());
    if joined && empty_join {
        return Ok(());
    }
    for sub in p.subnames() {
        out.write_str(":")?;
        write_escaped(out, sub, escape)?;
    }
    Ok(())
}
