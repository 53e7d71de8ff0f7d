//! The 4-byte value header: `type_id (bits 0-7) | unused (8-15) | type data (16-31)`.
//!
//! Bits the type does not use are ignored on read (as the engine does) and written as zero.
//!
//! ```
//! use gdwire::header::{ContainerKind, Header};
//! // The first word of var_to_bytes of an Array[int] in Godot 4.3+.
//! let h = Header(u32::from_le_bytes([28, 0, 1, 0]));
//! assert_eq!((h.type_id(), h.array_kind()), (28, ContainerKind::Builtin));
//! ```

/// Bit 16: 64-bit payload (Int, Float; Godot 4 math types and packed vector arrays).
///
/// ```
/// use gdwire::header::{Header, FLAG_64};
/// // An int too large for 32 bits is sent with bit 16 set and 8 bytes.
/// let bytes = gdwire::to_vec(gdwire::Dialect::GODOT_4, &gdwire::VariantRef::Int(1 << 40))?;
/// let header = Header(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]));
/// assert_eq!(header.0 & FLAG_64, FLAG_64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const FLAG_64: u32 = 1 << 16;
/// Bit 16 on Object (and Pandemonium 5 typed arrays): the object is sent as an instance id.
///
/// ```
/// use gdwire::header::FLAG_OBJECT_AS_ID;
/// use gdwire::{from_bytes, Dialect, ObjectRef};
/// let header = (24 | FLAG_OBJECT_AS_ID).to_le_bytes(); // Godot 4 Object, sent as an id
/// let bytes = [&header[..], &9u64.to_le_bytes()].concat();
/// assert_eq!(from_bytes(Dialect::GODOT_4, &bytes)?.as_object(), Some(ObjectRef::Id(9)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
const ARRAY_KIND_SHIFT: u32 = 16;
const DICT_KEY_KIND_SHIFT: u32 = 16;
const DICT_VALUE_KIND_SHIFT: u32 = 18;
const KIND_MASK: u32 = 0b11;

/// What follows a typed container's header: the container-type kind of Godot 4.3+/4.4+.
///
/// ```
/// use gdwire::header::{ContainerKind, Header};
/// // The header of an Array[int] (Godot 4.3+): a builtin element type follows.
/// assert_eq!(Header(0x0001_001c).array_kind(), ContainerKind::Builtin);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContainerKind {
    /// Untyped: no type block.
    None,
    /// A builtin type: `u32` type id.
    Builtin,
    /// An object class: string block with the class name.
    ClassName,
    /// A script: string block with its `res://` path.
    Script,
}

impl ContainerKind {
    const fn from_bits(bits: u32) -> ContainerKind {
        match bits & KIND_MASK {
            0 => ContainerKind::None,
            1 => ContainerKind::Builtin,
            2 => ContainerKind::ClassName,
            _ => ContainerKind::Script,
        }
    }

    /// The two header bits for this kind.
    ///
    /// ```
    /// use gdwire::header::ContainerKind;
    /// assert_eq!(ContainerKind::Script.bits(), 3);
    /// ```
    pub const fn bits(self) -> u32 {
        match self {
            ContainerKind::None => 0,
            ContainerKind::Builtin => 1,
            ContainerKind::ClassName => 2,
            ContainerKind::Script => 3,
        }
    }
}

/// A decoded header word.
///
/// ```
/// use gdwire::header::Header;
/// let h = Header(u32::from_le_bytes([28, 0, 1, 0])); // Array, typed
/// assert_eq!(h.type_id(), 28);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header(pub u32);

impl Header {
    /// The wire type id (low byte; the engine masks with `0xFF`).
    ///
    /// ```
    /// use gdwire::header::Header;
    /// assert_eq!(Header(0x0001_0002).type_id(), 2); // Int, 64-bit
    /// ```
    #[inline]
    pub const fn type_id(self) -> u8 {
        self.0 as u8
    }

    /// Bit 16.
    ///
    /// ```
    /// use gdwire::header::Header;
    /// assert!(Header(0x0001_0002).flag_64());
    /// assert!(!Header(2).flag_64());
    /// ```
    #[inline]
    pub const fn flag_64(self) -> bool {
        self.0 & FLAG_64 != 0
    }

    /// Element kind of a typed array (bits 16–17, Godot 4.3+).
    ///
    /// ```
    /// use gdwire::header::{ContainerKind, Header};
    /// assert_eq!(Header(0x0002_001c).array_kind(), ContainerKind::ClassName); // Array[Node]
    /// ```
    #[inline]
    pub const fn array_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> ARRAY_KIND_SHIFT)
    }

    /// Key kind of a typed dictionary (bits 16–17, Godot 4.4+).
    ///
    /// ```
    /// use gdwire::header::{ContainerKind, Header};
    /// assert_eq!(Header(0x0005_001b).dict_key_kind(), ContainerKind::Builtin); // Dictionary[int, int]
    /// ```
    #[inline]
    pub const fn dict_key_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> DICT_KEY_KIND_SHIFT)
    }

    /// Value kind of a typed dictionary (bits 18–19, Godot 4.4+).
    ///
    /// ```
    /// use gdwire::header::{ContainerKind, Header};
    /// assert_eq!(Header(0x0001_001b).dict_value_kind(), ContainerKind::None); // Dictionary[int, Variant]
    /// ```
    #[inline]
    pub const fn dict_value_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> DICT_VALUE_KIND_SHIFT)
    }

    /// Header for a typed array.
    ///
    /// ```
    /// use gdwire::header::{ContainerKind, Header};
    /// assert_eq!(Header::with_array_kind(28, ContainerKind::Builtin), Header(0x0001_001c));
    /// ```
    pub const fn with_array_kind(type_id: u8, kind: ContainerKind) -> Header {
        Header(type_id as u32 | kind.bits() << ARRAY_KIND_SHIFT)
    }

    /// Header for a typed dictionary.
    ///
    /// ```
    /// use gdwire::header::{ContainerKind, Header};
    /// let h = Header::with_dict_kinds(27, ContainerKind::Builtin, ContainerKind::Builtin);
    /// assert_eq!((h.dict_key_kind(), h.dict_value_kind()), (ContainerKind::Builtin, ContainerKind::Builtin));
    /// ```
    pub const fn with_dict_kinds(type_id: u8, key: ContainerKind, value: ContainerKind) -> Header {
        Header(
            type_id as u32
                | key.bits() << DICT_KEY_KIND_SHIFT
                | value.bits() << DICT_VALUE_KIND_SHIFT,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_6_1_typed_headers() {
        // Typed array of INT: `1c 00 01 00`; typed dictionary INT→INT: `1b 00 05 00`.
        let a = Header(u32::from_le_bytes([0x1c, 0, 1, 0]));
        assert_eq!(a.type_id(), 28);
        assert_eq!(a.array_kind(), ContainerKind::Builtin);
        assert_eq!(Header::with_array_kind(28, ContainerKind::Builtin), a);
        let d = Header(u32::from_le_bytes([0x1b, 0, 5, 0]));
        assert_eq!(d.dict_key_kind(), ContainerKind::Builtin);
        assert_eq!(d.dict_value_kind(), ContainerKind::Builtin);
        assert_eq!(
            Header::with_dict_kinds(27, ContainerKind::Builtin, ContainerKind::Builtin),
            d
        );
    }

    #[test]
    fn unused_bits_do_not_change_the_type() {
        assert_eq!(Header(0xFFFF_FF02).type_id(), 2);
    }
}
