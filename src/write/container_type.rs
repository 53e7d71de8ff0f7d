//! Element types of typed containers and their wire type blocks.

use crate::dialect::TextRules;
use crate::error::{ErrorKind, Result};
use crate::header::ContainerKind;
use crate::read::{ContainerType, StrRef};
use crate::variant_type::VariantType;
use crate::write::sink::Sink;
use crate::write::writer::Writer;

use VariantType as T;

/// Class name the engine writes for object-typed containers without full objects.
pub(super) const ENCODED_OBJECT_AS_ID: &[u8] = b"EncodedObjectAsID";

/// The element type of a typed container, for [`Writer::begin_typed_array`] and
/// [`Writer::begin_typed_dictionary`].
///
/// ```
/// use gdwire::{ContainerTypeSpec, Dialect, Writer};
/// let mut out = Vec::new();
/// let mut w = Writer::new(&mut out, Dialect::GODOT_4).with_full_objects(true);
/// w.begin_typed_array(0, ContainerTypeSpec::ClassName("Node"))?; // Array[Node]
/// w.finish()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerTypeSpec<'s> {
    /// A builtin type. `Builtin(Nil)` means untyped (Godot's `Variant`); `Builtin(Object)` is
    /// written as class `"Object"`, as the engine does for `Array[Object]`.
    Builtin(VariantType),
    /// Objects of a class (`Array[Node]`). Without full objects the engine writes the class
    /// as `"EncodedObjectAsID"`; so does this writer.
    ClassName(&'s str),
    /// Objects with a script, by `res://` path. Without full objects written as class
    /// `"EncodedObjectAsID"`, like the engine.
    Script(&'s str),
}

impl<'s> ContainerTypeSpec<'s> {
    /// The element type this spec asks for, as the reader would see it: `None` for untyped;
    /// `Builtin(Object)` is the class `"Object"`, as the engine writes `Array[Object]`.
    pub(super) fn resolve(self) -> Option<ContainerType<'s>> {
        // The spec's names are `&str`, valid under either rule; only the bytes are written.
        let text = |s: &'s str| StrRef::new(s.as_bytes(), TextRules::Strict);
        match self {
            ContainerTypeSpec::Builtin(T::Nil) => None,
            ContainerTypeSpec::Builtin(T::Object) => Some(ContainerType::ClassName(text("Object"))),
            ContainerTypeSpec::Builtin(ty) => Some(ContainerType::Builtin(ty)),
            ContainerTypeSpec::ClassName(name) => Some(ContainerType::ClassName(text(name))),
            ContainerTypeSpec::Script(path) => Some(ContainerType::Script(text(path))),
        }
    }
}

/// The Godot 4 type block of a resolved element type.
#[derive(Clone, Copy)]
pub(super) enum Block<'s> {
    None,
    Id(u32),
    Str(&'s [u8]),
}

impl<S: Sink> Writer<S> {
    pub(super) fn type_block<'e>(
        &self,
        elem: Option<ContainerType<'e>>,
    ) -> Result<(ContainerKind, Block<'e>)> {
        let Some(elem) = elem else {
            return Ok((ContainerKind::None, Block::None));
        };
        Ok(match elem {
            // A builtin Nil element type means untyped to the engine (`set_typed` is skipped
            // for it), so its encoder writes no type block (docs/wire-format.md §4.10).
            ContainerType::Builtin(T::Nil) => (ContainerKind::None, Block::None),
            ContainerType::Builtin(ty) => {
                let id = self
                    .dialect
                    .wire_id(ty)
                    .ok_or_else(|| self.err(ErrorKind::Unsupported(ty)))?;
                (ContainerKind::Builtin, Block::Id(id as u32))
            }
            ContainerType::UnknownBuiltin(id) => {
                if id >= self.dialect.variant_max() as u32 {
                    let id = id as i32;
                    return Err(self.err(ErrorKind::InvalidContainerType { id }));
                }
                (ContainerKind::Builtin, Block::Id(id))
            }
            ContainerType::ClassName(name) if self.full_objects => {
                (ContainerKind::ClassName, Block::Str(name.raw()))
            }
            // A path read with objects off is kept as sent, like every element type; a new
            // one is checked by `Writer::checked_spec`.
            ContainerType::Script(path) if self.full_objects => {
                (ContainerKind::Script, Block::Str(path.raw()))
            }
            ContainerType::ClassName(_) | ContainerType::Script(_) => {
                (ContainerKind::ClassName, Block::Str(ENCODED_OBJECT_AS_ID))
            }
        })
    }

    /// An element type the caller names: with full objects, a script must be a `res://`
    /// path, since the engine (and this crate's reader) loads it with objects allowed and
    /// rejects anything else. Refuse to write what cannot be read.
    pub(super) fn checked_spec<'s>(
        &self,
        spec: ContainerTypeSpec<'s>,
    ) -> Result<Option<ContainerType<'s>>> {
        match spec {
            ContainerTypeSpec::Script(path) if self.full_objects && !path.starts_with("res://") => {
                Err(self.err(ErrorKind::InvalidScriptPath))
            }
            _ => Ok(spec.resolve()),
        }
    }

    pub(super) fn put_block(&mut self, block: Block<'_>) -> Result<()> {
        match block {
            Block::None => Ok(()),
            Block::Id(id) => self.u32(id),
            Block::Str(s) => self.str_block(s),
        }
    }
}
