//! Godot 4 `var_to_str` (`VariantWriter::write`, `core/variant/variant_parser.cpp`, with
//! `p_compat = true` as `var_to_str` calls it). Derived from source; see docs/text.md.

use core::fmt::Write;

use crate::num_buf::NumBuf;
use crate::read::{ArrayRef, ContainerType, DictRef};
use crate::text::escape::{write_escaped, write_plain, Escape};
use crate::text::format::{Format, Res};
use crate::text::number::{printf_g, shortest};
use crate::{Dialect, VariantType};

pub(crate) struct Godot4 {
    pub(crate) dialect: Dialect,
}

impl Godot4 {
    /// Grisu2 floats: 4.5+ (a 4.4.1 engine still prints `%g`, engine-checked).
    fn shortest_floats(&self) -> bool {
        self.dialect.prints_shortest_floats()
    }
}

/// The name a typed container prints for its element type.
fn container_type<W: Write>(out: &mut W, t: &ContainerType<'_>, nil: &str) -> Res {
    match t {
        ContainerType::Builtin(VariantType::Nil) => out.write_str(nil)?,
        ContainerType::Builtin(ty) => out.write_str(ty.name())?,
        // No class name: the engine's type is the builtin OBJECT (engine-checked, 4.6).
        ContainerType::ClassName(name) if name.bytes().is_empty() => out.write_str("Object")?,
        ContainerType::ClassName(name) => write_plain(out, *name)?,
        ContainerType::Script(path) => {
            // A script type prints as a reference to its resource path.
            out.write_str("Resource(\"")?;
            write_escaped(out, *path, Escape::Multiline)?;
            out.write_str("\")")?;
        }
        ContainerType::UnknownBuiltin(id) => write!(out, "{id}")?,
    }
    Ok(())
}

fn typed(d: &DictRef<'_>) -> bool {
    d.key_type().is_some() || d.value_type().is_some()
}

fn element_type<'a>(a: &ArrayRef<'a>) -> Option<ContainerType<'a>> {
    match a.element_type() {
        None | Some(ContainerType::Builtin(VariantType::Nil)) => None,
        Some(t) => Some(t),
    }
}

impl Format for Godot4 {
    fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn parens(&self) -> (&'static str, &'static str) {
        ("(", ")")
    }

    /// `rtos_fix`. 4.5+: Grisu2 shortest digits, of the `f32` when the value is
    /// one exactly; `-inf` stays `inf_neg` in compat mode. 4.0 – 4.4: `%lg`.
    fn real(&self, v: f64) -> NumBuf {
        if v == 0.0 {
            return NumBuf::of("0");
        }
        if v == f64::NEG_INFINITY {
            return NumBuf::of("inf_neg");
        }
        if self.shortest_floats() {
            let single = !v.is_nan() && f64::from(v as f32) == v;
            return shortest(v, single);
        }
        if v.is_nan() {
            return NumBuf::of("nan");
        }
        printf_g(v)
    }

    fn bare_float(&self, text: &str) -> bool {
        match self.shortest_floats() {
            true => matches!(text, "inf" | "-inf" | "nan"),
            false => matches!(text, "inf" | "inf_neg" | "nan"),
        }
    }

    fn int(&self, v: i32) -> NumBuf {
        let mut out = NumBuf::new();
        let _ = write!(out, "{v}");
        out
    }

    fn string_name(&self) -> &'static str {
        "&\""
    }

    fn rid<W: Write>(&self, out: &mut W, id: Option<u64>) -> Res {
        if !self.callables_print() {
            return Ok(()); // Godot 4.0: no case for RIDs either
        }
        match id.unwrap_or(0) {
            0 => out.write_str("RID()")?,
            // The engine prints the id as a signed 64-bit integer (`RID(-1)`).
            id => write!(out, "RID({})", id as i64)?,
        }
        Ok(())
    }

    fn open_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res {
        if let Some(t) = element_type(a) {
            out.write_str("Array[")?;
            container_type(out, &t, "Nil")?;
            out.write_str("](")?;
        }
        Ok(out.write_str("[")?)
    }

    fn close_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res {
        out.write_str("]")?;
        if element_type(a).is_some() {
            out.write_str(")")?;
        }
        Ok(())
    }

    fn open_dictionary<W: Write>(&self, out: &mut W, d: &DictRef<'_>) -> Res {
        if typed(d) {
            let any = ContainerType::Builtin(VariantType::Nil);
            out.write_str("Dictionary[")?;
            container_type(out, &d.key_type().unwrap_or(any), "Variant")?;
            out.write_str(", ")?;
            container_type(out, &d.value_type().unwrap_or(any), "Variant")?;
            out.write_str("](")?;
        }
        Ok(())
    }

    fn close_dictionary<W: Write>(&self, out: &mut W, d: &DictRef<'_>) -> Res {
        if typed(d) {
            out.write_str(")")?;
        }
        Ok(())
    }

    fn callables_print(&self) -> bool {
        // Engine-checked: 4.0 prints RIDs, Callables and Signals as nothing, 4.2+ as shown.
        self.dialect.godot4_minor() != Some(0)
    }

    fn objects_count_for_depth(&self) -> bool {
        // Engine-checked: 4.0 and 4.1 print an object 101 containers deep, 4.2+ `null`.
        !matches!(self.dialect.godot4_minor(), Some(0 | 1))
    }

    fn c_escape(&self) -> Escape {
        // Engine-checked with 4.6: `?` is not escaped (PR #68229, before 4.0).
        Escape::Full { question: false }
    }

    fn joins_subnames(&self) -> bool {
        // Engine-checked with 4.6 (PR #110478, after 4.5).
        self.dialect.joins_node_path_subnames()
    }

    fn empty_dictionary(&self) -> &'static str {
        // Since 4.0 (PR #56896).
        "{}"
    }

    fn cut_depth(&self) -> Option<u32> {
        // VariantWriter's MAX_RECURSION ("Max recursion reached"): engine-checked in 4.6, an
        // Array or Dictionary 101 containers deep prints as `[]` / `{}` (typed prefix kept),
        // an Object as `null`.
        Some(100)
    }
}
