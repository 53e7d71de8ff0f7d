//! What differs between the engines' text writers. The traversal (`walk`) and the leaf cases
//! (`leaf`) are shared; a dialect supplies only its numbers, punctuation and spellings.

use core::fmt::Write;

use crate::num_buf::NumBuf;
use crate::read::{ArrayRef, DictRef};
use crate::text::escape::Escape;
use crate::text::TextError;
use crate::Dialect;

pub(crate) type Res = Result<(), TextError>;

pub(crate) trait Format {
    /// The dialect whose type names and dictionary key order apply.
    fn dialect(&self) -> Dialect;

    /// A constructor's parentheses: `"( "`, `" )"` in 3.x, `"("`, `")"` in 4.x.
    fn parens(&self) -> (&'static str, &'static str);

    /// A real as `rtos_fix` prints it (components and FLOAT scalars alike).
    fn real(&self, v: f64) -> NumBuf;

    /// `true` for the `real` texts a FLOAT scalar prints without `.0` (inf, nan …); other
    /// texts get `.0` unless they contain `.`, `e` or `E`.
    fn bare_float(&self, text: &str) -> bool;

    /// An integer component of Vector2i & co.
    fn int(&self, v: i32) -> NumBuf;

    /// What precedes a StringName's quoted text (`@"` or `&"`).
    fn string_name(&self) -> &'static str;

    /// An RID with its id (`None`: an empty RID).
    fn rid<W: Write>(&self, out: &mut W, id: Option<u64>) -> Res;

    /// Up to and including `[` (and a typed array's type).
    fn open_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res;

    /// From `]` on.
    fn close_array<W: Write>(&self, out: &mut W, a: &ArrayRef<'_>) -> Res;

    /// What precedes `{` (a typed dictionary's types); nothing by default.
    fn open_dictionary<W: Write>(&self, _out: &mut W, _d: &DictRef<'_>) -> Res {
        Ok(())
    }

    /// What follows `}`; nothing by default.
    fn close_dictionary<W: Write>(&self, _out: &mut W, _d: &DictRef<'_>) -> Res {
        Ok(())
    }

    /// Callables and Signals print as `Callable()` and `Signal()`; Godot 4.0's writer had no
    /// case for them (nor for RIDs) and printed nothing.
    fn callables_print(&self) -> bool {
        true
    }

    /// Objects count towards [`Format::cut_depth`] and are cut there (printed `null`); the
    /// writers of Godot 4.0 and 4.1 checked and counted only arrays and dictionaries.
    fn objects_count_for_depth(&self) -> bool {
        true
    }

    /// How NodePaths, StringNames and packed strings are escaped (the engine's `c_escape`).
    fn c_escape(&self) -> Escape {
        Escape::Full { question: true }
    }

    /// A NodePath's subnames are written as the engine's cached join of them (Godot 4.6+):
    /// `:` and the join when it is not empty, so a path whose one subname is empty prints no
    /// `:`; before, `:` and each subname.
    fn joins_subnames(&self) -> bool {
        false
    }

    /// A PoolByteArray as one base64 string (`PoolByteArray( "AQID" )`, Pandemonium 4.3+)
    /// instead of its numbers.
    fn base64_bytes(&self) -> bool {
        false
    }

    /// A dictionary without entries (the others are `{\n`, entries joined by `,\n`, `\n}`).
    fn empty_dictionary(&self) -> &'static str;

    /// Containers nested deeper than this are written empty and objects as `null` (the
    /// engine's writer stops recursing there); `None`: no such cut.
    fn cut_depth(&self) -> Option<u32> {
        None
    }
}
