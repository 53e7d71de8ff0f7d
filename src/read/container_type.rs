//! The element type of typed containers (Godot 4.3+ arrays, 4.4+ dictionaries, Pandemonium 5
//! typed arrays).

use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Expected, Result};
use crate::header::ContainerKind;
use crate::read::decoder::Decoder;
use crate::read::input::need_u32;
use crate::read::str_ref::{string_block, StrRef};
use crate::variant_type::VariantType;

/// What a typed container holds, as sent on the wire. The engine would check elements against
/// it and silently drop mismatches; this crate keeps every element and exposes the type.
///
/// ```
/// use gdwire::{from_bytes, ContainerType, Dialect, VariantType};
/// let bytes = [28, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0, 0]; // Array[String]([])
/// let array = from_bytes(Dialect::GODOT_4, &bytes)?.as_array().unwrap();
/// assert_eq!(array.element_type(), Some(ContainerType::Builtin(VariantType::String)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContainerType<'a> {
    /// A builtin type (Godot `BUILTIN` kind; Pandemonium element type id).
    Builtin(VariantType),
    /// Objects of a class (Godot `CLASS_NAME` kind; Pandemonium class-name value). Without
    /// full objects the engine sends `"EncodedObjectAsID"` here.
    ClassName(StrRef<'a>),
    /// Objects with a script (Godot `SCRIPT` kind): the script's `res://` path.
    Script(StrRef<'a>),
    /// A Pandemonium 5 element type id that is not a type of the dialect (the engine does not
    /// range-check it).
    UnknownBuiltin(u32),
}

impl ContainerType<'_> {
    /// The header kind that announces this type block.
    ///
    /// ```
    /// use gdwire::header::ContainerKind;
    /// use gdwire::{ContainerType, VariantType};
    /// assert_eq!(ContainerType::Builtin(VariantType::Int).kind(), ContainerKind::Builtin);
    /// ```
    pub fn kind(&self) -> ContainerKind {
        match self {
            ContainerType::Builtin(_) | ContainerType::UnknownBuiltin(_) => ContainerKind::Builtin,
            ContainerType::ClassName(_) => ContainerKind::ClassName,
            ContainerType::Script(_) => ContainerKind::Script,
        }
    }
}

/// Reads the Godot 4 type block for `kind` at `pos`; returns it and the position after it.
pub(crate) fn read_type_block<'a>(
    dec: &Decoder,
    data: &'a [u8],
    pos: usize,
    kind: ContainerKind,
    validate: bool,
) -> Result<(Option<ContainerType<'a>>, usize)> {
    let dialect: Dialect = dec.dialect();
    let rules = dialect.text_rules();
    match kind {
        ContainerKind::None => Ok((None, pos)),
        ContainerKind::Builtin => {
            let id = need_u32(data, pos, Expected::ContainerType)? as i32;
            let ty = u8::try_from(id).ok().and_then(|id| dialect.type_of(id));
            let ty = ty.ok_or(Error::new(ErrorKind::InvalidContainerType { id }, pos))?;
            // A BUILTIN block naming NIL (Variant) leaves that side untyped, as in the engine.
            let ty = (ty != VariantType::Nil).then_some(ContainerType::Builtin(ty));
            Ok((ty, pos + 4))
        }
        ContainerKind::ClassName => {
            let (name, end) = string_block(data, pos, rules, validate)?;
            Ok((Some(ContainerType::ClassName(name)), end))
        }
        ContainerKind::Script => {
            let (path, end) = string_block(data, pos, rules, validate)?;
            // The engine loads the script only when objects are allowed, and then requires a
            // non-empty res:// path. Loading itself is out of scope here.
            if dec.allows_objects() && !path.bytes().starts_with(b"res://") {
                return Err(Error::new(ErrorKind::InvalidScriptPath, pos));
            }
            Ok((Some(ContainerType::Script(path)), end))
        }
    }
}
