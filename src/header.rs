//! The 4-byte value header: `type_id (bits 0-7) | unused (8-15) | type data (16-31)`.
//!
//! Bits the type does not use are ignored on read (as the engine does) and written as zero.

/// Bit 16: 64-bit payload (Int, Float; Godot 4 math types and packed vector arrays).
pub const FLAG_64: u32 = 1 << 16;
/// Bit 16 on Object (and Pandemonium 5 typed arrays): the object is sent as an instance id.
pub const FLAG_OBJECT_AS_ID: u32 = 1 << 16;
const ARRAY_KIND_SHIFT: u32 = 16;
const DICT_KEY_KIND_SHIFT: u32 = 16;
const DICT_VALUE_KIND_SHIFT: u32 = 18;
const KIND_MASK: u32 = 0b11;

/// What follows a typed container's header: the container-type kind of Godot 4.3+/4.4+.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header(pub u32);

impl Header {
    /// The wire type id (low byte; the engine masks with `0xFF`).
    #[inline]
    pub const fn type_id(self) -> u8 {
        self.0 as u8
    }

    /// Bit 16.
    #[inline]
    pub const fn flag_64(self) -> bool {
        self.0 & FLAG_64 != 0
    }

    /// Element kind of a typed array (bits 16–17, Godot 4.3+).
    #[inline]
    pub const fn array_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> ARRAY_KIND_SHIFT)
    }

    /// Key kind of a typed dictionary (bits 16–17, Godot 4.4+).
    #[inline]
    pub const fn dict_key_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> DICT_KEY_KIND_SHIFT)
    }

    /// Value kind of a typed dictionary (bits 18–19, Godot 4.4+).
    #[inline]
    pub const fn dict_value_kind(self) -> ContainerKind {
        ContainerKind::from_bits(self.0 >> DICT_VALUE_KIND_SHIFT)
    }

    /// Header for a typed array.
    pub const fn with_array_kind(type_id: u8, kind: ContainerKind) -> Header {
        Header(type_id as u32 | kind.bits() << ARRAY_KIND_SHIFT)
    }

    /// Header for a typed dictionary.
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
