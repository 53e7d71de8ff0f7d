//! `refuse!`: the serde `Serializer` methods a special-purpose serializer does not accept,
//! each returning the same error. The crate has several such serializers (math components,
//! packed views, packed collections, the Godot-type wrappers); they list what they refuse
//! here instead of repeating thirty method bodies each.

/// `refuse!(error_expr; method_kind…)` expands to the listed `serialize_*` methods, each
/// returning `Err(error_expr)`. Kinds are the method names without `serialize_`.
macro_rules! refuse {
    ($err:expr; $($kind:ident)*) => { $( refuse!(@one $err; $kind); )* };
    (@one $err:expr; bool) => { fn serialize_bool(self, _: bool) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; i8) => { fn serialize_i8(self, _: i8) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; i16) => { fn serialize_i16(self, _: i16) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; i32) => { fn serialize_i32(self, _: i32) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; i64) => { fn serialize_i64(self, _: i64) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; u8) => { fn serialize_u8(self, _: u8) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; u16) => { fn serialize_u16(self, _: u16) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; u32) => { fn serialize_u32(self, _: u32) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; u64) => { fn serialize_u64(self, _: u64) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; f32) => { fn serialize_f32(self, _: f32) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; f64) => { fn serialize_f64(self, _: f64) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; char) => { fn serialize_char(self, _: char) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; str) => { fn serialize_str(self, _: &str) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; bytes) => {
        fn serialize_bytes(self, _: &[u8]) -> Result<Self::Ok> { Err($err) }
    };
    (@one $err:expr; none) => { fn serialize_none(self) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; some) => {
        fn serialize_some<V: serde::Serialize + ?Sized>(self, _: &V) -> Result<Self::Ok> {
            Err($err)
        }
    };
    (@one $err:expr; unit) => { fn serialize_unit(self) -> Result<Self::Ok> { Err($err) } };
    (@one $err:expr; unit_struct) => {
        fn serialize_unit_struct(self, _: &'static str) -> Result<Self::Ok> { Err($err) }
    };
    (@one $err:expr; unit_variant) => {
        fn serialize_unit_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
        ) -> Result<Self::Ok> {
            Err($err)
        }
    };
    (@one $err:expr; newtype_struct) => {
        fn serialize_newtype_struct<V: serde::Serialize + ?Sized>(
            self,
            _: &'static str,
            _: &V,
        ) -> Result<Self::Ok> {
            Err($err)
        }
    };
    (@one $err:expr; newtype_variant) => {
        fn serialize_newtype_variant<V: serde::Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &V,
        ) -> Result<Self::Ok> {
            Err($err)
        }
    };
    (@one $err:expr; seq) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> { Err($err) }
    };
    (@one $err:expr; tuple) => {
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> { Err($err) }
    };
    (@one $err:expr; tuple_struct) => {
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct> {
            Err($err)
        }
    };
    (@one $err:expr; tuple_variant) => {
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err($err)
        }
    };
    (@one $err:expr; map) => {
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> { Err($err) }
    };
    (@one $err:expr; struct) => {
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err($err)
        }
    };
    (@one $err:expr; struct_variant) => {
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err($err)
        }
    };
}

/// `ints!(|self, v| body)` expands to `serialize_i8` … `serialize_i64` and `serialize_u8` …
/// `serialize_u32`, each running `body` with `v` widened to `i64` (every one fits).
macro_rules! ints {
    (|$self:ident, $v:ident| $body:expr) => {
        ints!(@each |$self, $v| $body; serialize_i8 i8, serialize_i16 i16, serialize_i32 i32,
            serialize_i64 i64, serialize_u8 u8, serialize_u16 u16, serialize_u32 u32);
    };
    (@each |$self:ident, $v:ident| $body:expr; $($name:ident $t:ty),*) => {$(
        #[inline]
        fn $name($self, $v: $t) -> Result<Self::Ok> {
            let $v = i64::from($v);
            $body
        }
    )*};
}
