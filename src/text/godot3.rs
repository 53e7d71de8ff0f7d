//! Godot 3 `var2str` (`VariantWriter::write`, 3.2.3 `core/variant_parser.cpp`), checked
//! byte for byte against a real 3.2.3 engine, and Pandemonium's `VariantWriter`, checked against
//! one engine of each of its type numberings (docs/text.md).

use core::fmt::Write;

use crate::num_buf::NumBuf;
use crate::read::{ArrayKind, ArrayRef};
use crate::text::base64;
use crate::text::escape::write_plain;
use crate::text::format::{Format, Res};
use crate::text::number::printf_g;
use crate::{ContainerType, Dialect, VariantType};

pub(crate) struct Godot3 {
    pub(crate) dialect: Dialect,
    /// Pandemonium's writer: `rtos_fix` with `inf_neg`, `{\n}` for an empty dictionary, and
    /// its extra types.
    pub(crate) pandemonium: bool,
}

impl Format for Godot3 {
    fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn parens(&self) -> (&'static str, &'static str) {
        ("( ", " )")
    }

    /// A real as the 3.x writers print it: through `real_t` (`float`), then `rtosfix`.
    fn real(&self, v: f64) -> NumBuf {
        if v.is_nan() {
            // The conversion to float keeps the sign (x86), and glibc prints it.
            return NumBuf::of(match (self.pandemonium, v.is_sign_negative()) {
                (false, true) => "-nan",
                _ => "nan",
            });
        }
        let f = v as f32;
        if f == 0.0 {
            // Negative zero is written as 0 on purpose (avoids noisy diffs).
            return NumBuf::of("0");
        }
        if self.pandemonium && f.is_infinite() {
            return NumBuf::of(if f > 0.0 { "inf" } else { "inf_neg" });
        }
        printf_g(f64::from(f))
    }

    fn bare_float(&self, text: &str) -> bool {
        // 3.2.3 appends `.0` to "-inf" and "-nan"; Pandemonium spells them without a sign.
        match self.pandemonium {
            true => matches!(text, "inf" | "inf_neg" | "nan"),
            false => matches!(text, "inf" | "nan"),
        }
    }

    /// `rtosfix` of an integer component (Pandemonium's Vector2i & co. go through a double).
    fn int(&self, v: i32) -> NumBuf {
        self.real(f64::from(v))
    }

    fn string_name(&self) -> &'static str {
        "@\""
    }

    fn rid<W: Write>(&self, _out: &mut W, _id: Option<u64>) -> Res {
        // The writer has no case for RID: nothing is written.
        Ok(())
    }

    /// Pandemonium 5 writes its typed arrays as `TypedArray( int , 1, 2 )` (checked against
    /// the engine): the element type's name (a class name for objects, `Nil` when untyped),
    /// then the items.
    fn open_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res {
        let open = match a.kind() {
            ArrayKind::Array => return Ok(out.write_str("[ ")?),
            ArrayKind::TypedArray => "TypedArray( ",
            ArrayKind::PackedTypedArray => "PackedTypedArray( ",
        };
        out.write_str(open)?;
        match a.element_type() {
            None => out.write_str(self.dialect.type_name(VariantType::Nil))?,
            // Objects sent as ids carry no class name; the engine's decoder names it so
            // (engine-checked). The view keeps what the wire says.
            Some(ContainerType::Builtin(VariantType::Object)) => {
                out.write_str("EncodedObjectAsID")?
            }
            Some(ContainerType::Builtin(ty)) => out.write_str(self.dialect.type_name(ty))?,
            Some(ContainerType::ClassName(name) | ContainerType::Script(name)) => {
                write_plain(out, name)?
            }
            // `Variant::get_type_name` of an id past the table is empty.
            Some(ContainerType::UnknownBuiltin(_)) => {}
        }
        Ok(out.write_str(" , ")?)
    }

    fn close_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res {
        Ok(out.write_str(match a.kind() {
            ArrayKind::Array => " ]",
            ArrayKind::TypedArray | ArrayKind::PackedTypedArray => " )",
        })?)
    }

    fn base64_bytes(&self) -> bool {
        base64::written_by(self.dialect)
    }

    fn empty_dictionary(&self) -> &'static str {
        // 3.2.3 closes with "\n}" even when empty; Pandemonium ends every entry with a line
        // break and closes with "}".
        match self.pandemonium {
            true => "{\n}",
            false => "{\n\n}",
        }
    }
}
