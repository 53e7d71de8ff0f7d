//! `VariantParser::parse_value` without recursion: open containers wait on a heap stack and
//! finished items on a second one, until their container closes.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::dialect::Family;
use crate::read::MAX_DEPTH;
use crate::text::base64;
use crate::text::parse::lex::{Lexer, Tok};
use crate::text::parse::merge::Merger;
use crate::text::parse::number::{f64_to_i32, f64_to_i64};
use crate::text::parse::tree::{ArrayForm, Kind, Span, Spec, Tree};
use crate::text::parse::Syntax;
use crate::{Dialect, Precision, VariantType};

use VariantType as T;

/// A number argument of a constructor, before the engine converts it to the component type.
#[derive(Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    /// To `float` (`real_t` in single-precision builds): an int converts directly.
    fn f32(self) -> f32 {
        match self {
            Num::Int(i) => i as f32,
            Num::Float(f) => f as f32,
        }
    }
    fn f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
    fn i32(self, family: Family) -> i32 {
        match self {
            Num::Int(i) => i as i32,
            Num::Float(f) => f64_to_i32(f, family),
        }
    }
    fn i64(self, family: Family) -> i64 {
        match self {
            Num::Int(i) => i,
            Num::Float(f) => f64_to_i64(f, family),
        }
    }
    /// To `uint8_t`: an int wraps; a float converts through 32 bits (Godot 4, as the 4.6
    /// WebAssembly engine does: unsigned, saturating) and then wraps.
    fn u8(self, family: Family) -> u8 {
        match self {
            Num::Int(i) => i as u8,
            Num::Float(f) if family == Family::Godot4 => f as u32 as u8,
            Num::Float(f) => f64_to_i32(f, family) as u8,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// A key (or value, for arrays), a `,` or the closing bracket.
    Item,
    Colon,
    Value,
}

#[derive(Clone, Copy, Debug)]
enum Open {
    Array {
        elem: Option<Spec>,
        form: ArrayForm,
    },
    Dict {
        key: Option<Spec>,
        value: Option<Spec>,
    },
    Object {
        class: Span,
    },
}

/// A container whose bracket is open in the text.
#[derive(Clone, Copy, Debug)]
struct OpenBracket {
    open: Open,
    /// Its items are `pending[start..]`.
    start: usize,
    /// Where it starts in the text.
    at: usize,
    step: Step,
    need_comma: bool,
    /// `Array[T]([...])` / `Dictionary[K, V]({...})`: a `)` follows the bracket.
    paren: bool,
}

pub(super) struct Parser<'t> {
    pub(super) lex: Lexer<'t>,
    dialect: Dialect,
    family: Family,
    pub(super) tree: Tree,
    stack: Vec<OpenBracket>,
    pending: Vec<u32>,
    args: Vec<Num>,
    merger: Merger,
    /// Real components are `double` (`real_t` of a double-precision Godot 4 build), not
    /// `float`.
    double_reals: bool,
}

fn fail<T>(at: usize, message: impl Into<String>) -> Result<T, Syntax> {
    Err(Syntax {
        at,
        message: message.into(),
    })
}

/// What a token did: finished a value, or only moved the parser on (opened a container,
/// read a separator or a property name).
enum Begun {
    Leaf(u32),
    Opened,
}

impl<'t> Parser<'t> {
    pub(super) fn new(dialect: Dialect, src: &'t str) -> Parser<'t> {
        let family = dialect.family();
        Parser {
            lex: Lexer::new(src, dialect),
            dialect,
            family,
            tree: Tree::default(),
            stack: Vec::new(),
            pending: Vec::new(),
            args: Vec::new(),
            merger: Merger::new(dialect),
            double_reals: false,
        }
    }

    /// Reads real math components as a build of `precision` does (`double` with
    /// [`Precision::Double`] where the dialect has such builds).
    pub(super) fn set_precision(&mut self, precision: Precision) {
        self.double_reals = precision == Precision::Double && self.dialect.math_follows_flag_64();
        self.merger.precision = precision;
    }

    /// A real math component, as `real_t`.
    fn real(&self, a: Num) -> f64 {
        if self.double_reals {
            a.f64()
        } else {
            f64::from(a.f32())
        }
    }

    /// Parses the next value into a fresh tree; returns its root.
    pub(super) fn value(&mut self) -> Result<u32, Syntax> {
        self.tree.clear();
        self.stack.clear();
        self.pending.clear();
        loop {
            let tok = self.lex.next()?;
            let at = self.lex.start;
            let done = match self.stack.last().copied() {
                None => self.begin(tok)?,
                Some(f) => match (f.open, f.step) {
                    (_, Step::Colon) => {
                        if tok != Tok::Colon {
                            return fail(at, format!("expected ':', found {}", tok.describe()));
                        }
                        self.top().step = Step::Value;
                        Begun::Opened
                    }
                    (_, Step::Value) => self.begin(tok)?,
                    (open, Step::Item) => {
                        let close = match open {
                            Open::Array {
                                form: ArrayForm::Array,
                                ..
                            } => Tok::RBracket,
                            Open::Array { .. } => Tok::RParen,
                            Open::Dict { .. } => Tok::RBrace,
                            Open::Object { .. } => Tok::RParen,
                        };
                        if tok == close {
                            Begun::Leaf(self.close()?)
                        } else if f.need_comma {
                            if tok != Tok::Comma {
                                let c = close.describe();
                                return fail(
                                    at,
                                    format!("expected ',' or {c}, found {}", tok.describe()),
                                );
                            }
                            self.top().need_comma = false;
                            Begun::Opened
                        } else if let Open::Object { .. } = open {
                            if tok != Tok::Str {
                                return fail(
                                    at,
                                    format!(
                                        "expected a property name (a string), found {}",
                                        tok.describe()
                                    ),
                                );
                            }
                            let span = self.tree.add_text(&self.lex.text);
                            let name = self.tree.push(Kind::String(span), at);
                            self.pending.push(name);
                            self.top().step = Step::Colon;
                            Begun::Opened
                        } else {
                            self.begin(tok)?
                        }
                    }
                },
            };
            if let Begun::Leaf(node) = done {
                let Some(top) = self.stack.last_mut() else {
                    return Ok(node);
                };
                self.pending.push(node);
                match (top.open, top.step) {
                    (Open::Dict { .. }, Step::Item) => top.step = Step::Colon,
                    _ => {
                        top.step = Step::Item;
                        top.need_comma = true;
                    }
                }
            }
        }
    }

    fn top(&mut self) -> &mut OpenBracket {
        // Only called with a frame open.
        let i = self.stack.len().saturating_sub(1);
        &mut self.stack[i]
    }

    fn open(&mut self, open: Open, at: usize, paren: bool) -> Result<Begun, Syntax> {
        if self.stack.len() >= MAX_DEPTH as usize {
            return fail(at, format!("nesting deeper than {MAX_DEPTH} levels"));
        }
        self.stack.push(OpenBracket {
            open,
            start: self.pending.len(),
            at,
            step: Step::Item,
            need_comma: false,
            paren,
        });
        Ok(Begun::Opened)
    }

    /// Closes the innermost container; returns its node.
    fn close(&mut self) -> Result<u32, Syntax> {
        let Some(f) = self.stack.pop() else {
            return fail(self.lex.start, "nothing to close");
        };
        if f.paren {
            self.expect(Tok::RParen)?;
        }
        let mut items = self.pending.split_off(f.start);
        let kind = match f.open {
            Open::Array {
                elem,
                form: ArrayForm::Array,
            } => {
                for item in items.iter_mut() {
                    *item = self.convert(*item, elem);
                }
                if !self.all_typed(&items, |_| elem) {
                    items.clear();
                }
                Kind::Array(ArrayForm::Array, elem, self.kids(&items))
            }
            Open::Array { elem, form } => {
                // Pandemonium's `push_back` converts nothing: an item of another type fails
                // the whole parse.
                if let Some(&bad) = items.iter().find(|&&i| !self.takes(elem, i)) {
                    return fail(self.tree.node(bad).at, "invalid value in typed array");
                }
                Kind::Array(form, elem, self.kids(&items))
            }
            Open::Dict { key, value } => {
                if self.dialect.godot4_minor().is_some_and(|minor| minor < 4) {
                    // Godot 4.0–4.3's `Dictionary::operator[]` stores a StringName key as a
                    // String (engine-checked with 4.2 and 4.3).
                    for &k in items.iter().step_by(2) {
                        let node = &mut self.tree.nodes[k as usize];
                        if let Kind::StringName(s) = node.kind {
                            node.kind = Kind::String(s);
                        }
                    }
                }
                let side = |i: usize| if i % 2 == 0 { key } else { value };
                for (i, item) in items.iter_mut().enumerate() {
                    *item = self.convert(*item, side(i));
                }
                if !self.all_typed(&items, side) {
                    items.clear();
                }
                let items = self
                    .merger
                    .merge(&self.tree, items, self.stack.len() as u32)?;
                Kind::Dictionary(key, value, self.kids(&items))
            }
            Open::Object { class } => {
                if self.tree.text(class) == b"EncodedObjectAsID" {
                    return self.object_id(&items, f.at);
                }
                Kind::Object(class, self.kids(&items))
            }
        };
        Ok(self.tree.push(kind, f.at))
    }

    /// An item of a typed container, converted as the engine's `assign` converts it where
    /// the types differ: int and float into each other (a float truncated), String and
    /// StringName into each other. Other mismatches are written as they are.
    fn convert(&mut self, item: u32, elem: Option<Spec>) -> u32 {
        let Some(Spec::Builtin(ty)) = elem else {
            return item;
        };
        let node = self.tree.node(item);
        let kind = match (ty, node.kind) {
            (T::Int, Kind::Float(f)) => Kind::Int(f64_to_i64(f, self.family)),
            (T::Float, Kind::Int(i)) => Kind::Float(i as f64),
            (T::String, Kind::StringName(s)) => Kind::String(s),
            (T::StringName, Kind::String(s)) => Kind::StringName(s),
            _ => return item,
        };
        self.tree.push(kind, node.at)
    }

    /// Whether every item has its side's builtin type (after [`Parser::convert`]): the
    /// engine's `assign` into a typed container fails otherwise and leaves it empty. Items
    /// of class-typed sides are not checked (the class hierarchy is the engine's).
    fn all_typed(&self, items: &[u32], side: impl Fn(usize) -> Option<Spec>) -> bool {
        items.iter().enumerate().all(|(i, &item)| match side(i) {
            Some(Spec::Builtin(ty)) if ty != T::Object => {
                kind_type(&self.tree.node(item).kind).is_none_or(|t| t == ty)
            }
            _ => true,
        })
    }

    /// Pandemonium 5 `_parse_typed_array`: `( )`, `( T )` or `( T , items… )`, after the
    /// name. An absent type is Nil; `T` is a type's name (`int`, `Vector3`, …) or else a
    /// class name.
    fn pandemonium_typed_array(&mut self, form: ArrayForm, at: usize) -> Result<Begun, Syntax> {
        self.expect(Tok::LParen)?;
        let tok = self.lex.next()?;
        let elem = match tok {
            Tok::RParen => Spec::Builtin(T::Nil),
            Tok::Ident(id) => {
                // `Variant::get_type_name` of each type in turn, as `set_type_from_name`.
                let d = self.dialect;
                let named = (0..d.variant_max())
                    .filter_map(|i| d.type_of(i))
                    .find(|&t| d.type_name(t) == id);
                match named {
                    Some(ty) if ty != T::Object => Spec::Builtin(ty),
                    _ => Spec::Class(self.tree.add_text(id.as_bytes())),
                }
            }
            other => {
                let found = other.describe();
                return fail(
                    self.lex.start,
                    format!("expected a type name or ')', found {found}"),
                );
            }
        };
        // `( )` and `( T )` are complete; after `( T ,` the items follow.
        let complete = tok == Tok::RParen
            || match self.lex.next()? {
                Tok::Comma => false,
                Tok::RParen => true,
                other => {
                    let found = other.describe();
                    return fail(
                        self.lex.start,
                        format!("expected ',' or ')', found {found}"),
                    );
                }
            };
        let elem = Some(elem);
        self.open(Open::Array { elem, form }, at, false)?;
        match complete {
            true => Ok(Begun::Leaf(self.close()?)),
            false => Ok(Begun::Opened),
        }
    }

    /// Pandemonium 5 `can_take_variant`: an item of exactly the element type; for objects,
    /// any object or null (the class hierarchy is the engine's).
    fn takes(&self, elem: Option<Spec>, item: u32) -> bool {
        let kind = &self.tree.node(item).kind;
        match elem {
            Some(Spec::Builtin(ty)) => kind_type(kind) == Some(ty),
            _ => matches!(kind, Kind::Nil | Kind::Object(..) | Kind::ObjectId(_)),
        }
    }

    fn kids(&mut self, items: &[u32]) -> Span {
        let at = self.tree.kids.len();
        self.tree.kids.extend_from_slice(items);
        Span {
            at,
            len: items.len(),
        }
    }

    /// `Object(EncodedObjectAsID,"object_id":N,…)`, what the writers print for an object sent
    /// as an id: read back as that id (the engine would make a new `EncodedObjectAsID`).
    fn object_id(&mut self, items: &[u32], at: usize) -> Result<u32, Syntax> {
        for pair in items.chunks_exact(2) {
            let (name, value) = (self.tree.node(pair[0]), self.tree.node(pair[1]));
            if let Kind::String(s) = name.kind {
                if self.tree.text(s) == b"object_id" {
                    if let Kind::Int(id) = value.kind {
                        return Ok(self.tree.push(Kind::ObjectId(id as u64), at));
                    }
                }
            }
        }
        fail(
            at,
            "expected an integer \"object_id\" in Object(EncodedObjectAsID, …)",
        )
    }

    fn expect(&mut self, want: Tok<'_>) -> Result<(), Syntax> {
        let tok = self.lex.next()?;
        if tok != want {
            let at = self.lex.start;
            return fail(
                at,
                format!("expected {}, found {}", want.describe(), tok.describe()),
            );
        }
        Ok(())
    }

    fn leaf(&mut self, kind: Kind, at: usize) -> Result<Begun, Syntax> {
        Ok(Begun::Leaf(self.tree.push(kind, at)))
    }

    /// A value starting with `tok`: a leaf, or an opened container.
    fn begin(&mut self, tok: Tok<'t>) -> Result<Begun, Syntax> {
        let at = self.lex.start;
        match tok {
            Tok::LBrace => self.open(
                Open::Dict {
                    key: None,
                    value: None,
                },
                at,
                false,
            ),
            Tok::LBracket => {
                let open = Open::Array {
                    elem: None,
                    form: ArrayForm::Array,
                };
                self.open(open, at, false)
            }
            Tok::Int(i) => self.leaf(Kind::Int(i), at),
            Tok::Float(f) => self.leaf(Kind::Float(f), at),
            Tok::Str => {
                let s = self.tree.add_text(&self.lex.text);
                self.leaf(Kind::String(s), at)
            }
            Tok::StrName => {
                let s = self.tree.add_text(&self.lex.text);
                self.leaf(Kind::StringName(s), at)
            }
            Tok::Ident(id) => self.ident(id, at),
            Tok::Color(c) => {
                let start = self.tree.reals.len();
                self.tree.reals.extend(c.iter().map(|&x| f64::from(x)));
                self.leaf(Kind::Color(Span { at: start, len: 4 }), at)
            }
            Tok::Eof => fail(at, "expected a value, found the end of the text"),
            other => fail(at, format!("expected a value, found {}", other.describe())),
        }
    }

    /// The special floats the dialect's parser knows as identifiers, where it knows them.
    fn special(&self, id: &str, in_constructor: bool) -> Option<f64> {
        let godot3 = self.family == Family::Godot3;
        // Godot 3.2.3: `inf` and `nan` only as values, none in constructors.
        if godot3 && in_constructor {
            return None;
        }
        match id {
            "inf" => Some(f64::INFINITY),
            "nan" => Some(f64::NAN),
            "inf_neg" if !godot3 => Some(f64::NEG_INFINITY),
            "-inf" if self.dialect.prints_shortest_floats() => Some(f64::NEG_INFINITY),
            _ => None,
        }
    }

    fn type_named(&self, id: &str) -> Option<VariantType> {
        let ty = type_by_name(id, self.family)?;
        // Each Pandemonium line knows one spelling: `Quat` before 3.8, `Quaternion` after.
        if ty == T::Quaternion
            && self.family == Family::Pandemonium
            && id != self.dialect.type_name(ty)
        {
            return None;
        }
        self.dialect.supports(ty).then_some(ty)
    }

    fn ident(&mut self, id: &'t str, at: usize) -> Result<Begun, Syntax> {
        match id {
            "true" => return self.leaf(Kind::Bool(true), at),
            "false" => return self.leaf(Kind::Bool(false), at),
            "null" | "nil" => return self.leaf(Kind::Nil, at),
            _ => {}
        }
        if let Some(f) = self.special(id, false) {
            return self.leaf(Kind::Float(f), at);
        }
        let godot4 = self.family == Family::Godot4;
        let unexpected = || fail(at, format!("unexpected identifier '{id}'"));
        if id == "Object" {
            self.expect(Tok::LParen)?;
            let tok = self.lex.next()?;
            let Tok::Ident(class) = tok else {
                return fail(
                    self.lex.start,
                    format!("expected a class name, found {}", tok.describe()),
                );
            };
            let class = self.tree.add_text(class.as_bytes());
            self.expect(Tok::Comma)?;
            return self.open(Open::Object { class }, at, false);
        }
        if godot4 && id == "Array" {
            self.expect(Tok::LBracket)?;
            let elem = self.elem_type()?;
            self.expect(Tok::RBracket)?;
            self.expect(Tok::LParen)?;
            self.expect(Tok::LBracket)?;
            let form = ArrayForm::Array;
            return self.open(Open::Array { elem, form }, at, true);
        }
        let pandemonium_typed = match id {
            "TypedArray" => Some(ArrayForm::TypedArray),
            "PackedTypedArray" => Some(ArrayForm::PackedTypedArray),
            _ => None,
        };
        if let Some(form) = pandemonium_typed.filter(|_| self.dialect.supports(T::TypedArray)) {
            return self.pandemonium_typed_array(form, at);
        }
        if godot4 && id == "Dictionary" && self.dialect.has_typed_dictionaries() {
            self.expect(Tok::LBracket)?;
            let key = self.elem_type()?;
            self.expect(Tok::Comma)?;
            let value = self.elem_type()?;
            self.expect(Tok::RBracket)?;
            self.expect(Tok::LParen)?;
            self.expect(Tok::LBrace)?;
            return self.open(Open::Dict { key, value }, at, true);
        }
        let Some(ty) = self.type_named(id) else {
            return unexpected();
        };
        let kind = match ty {
            T::NodePath => {
                self.expect(Tok::LParen)?;
                self.expect_string("NodePath()")?;
                let s = self.tree.add_text(&self.lex.text);
                self.expect(Tok::RParen)?;
                Kind::NodePath(s)
            }
            T::Rid => self.rid()?,
            // Godot 4.0's parser has no case for them (engine-checked).
            T::Callable | T::Signal if self.dialect.godot4_minor() == Some(0) => {
                return unexpected()
            }
            T::Callable | T::Signal => {
                self.expect(Tok::LParen)?;
                self.expect(Tok::RParen)?;
                if ty == T::Callable {
                    Kind::Callable
                } else {
                    Kind::Signal
                }
            }
            T::PackedStringArray => self.strings()?,
            T::PackedByteArray if base64::read_by(self.dialect) => self.bytes()?,
            T::Color => {
                let n = self.numbers(Some(4), "Color")?;
                let at = self.tree.reals.len();
                for a in &self.args[..n] {
                    self.tree.reals.push(f64::from(a.f32()));
                }
                Kind::Color(Span { at, len: 4 })
            }
            _ => {
                if let Some(n) = ty.real_components() {
                    self.numbers(Some(n), id)?;
                    let at = self.tree.reals.len();
                    for i in 0..self.args.len() {
                        let c = self.real(self.args[i]);
                        self.tree.reals.push(c);
                    }
                    Kind::Real(ty, Span { at, len: n })
                } else if let Some(n) = ty.int_components() {
                    self.numbers(Some(n), id)?;
                    let at = self.tree.ints.len();
                    // Pandemonium's Rect2i keeps its components through a `float` (engine-
                    // checked: 16777217 reads as 16777216, 2147483647 as -2147483648).
                    let via_float = ty == T::Rect2i && self.family == Family::Pandemonium;
                    for a in &self.args {
                        let mut c = a.i32(self.family);
                        if via_float {
                            c = f64_to_i32(f64::from(c as f32), self.family);
                        }
                        self.tree.ints.push(i64::from(c));
                    }
                    Kind::IntVec(ty, Span { at, len: n })
                } else if ty.is_packed() {
                    self.packed(ty, id)?
                } else {
                    return unexpected();
                }
            }
        };
        self.leaf(kind, at)
    }

    fn expect_string(&mut self, what: &str) -> Result<(), Syntax> {
        let tok = self.lex.next()?;
        if tok != Tok::Str {
            let found = tok.describe();
            return fail(
                self.lex.start,
                format!("expected a string as argument for {what}, found {found}"),
            );
        }
        Ok(())
    }

    /// `RID(n)`: Godot 4.1+ an RID with that id (`RID()` an empty one); Godot 3's and 4.0's
    /// parsers return the number itself (4.0 engine-checked).
    fn rid(&mut self) -> Result<Kind, Syntax> {
        self.expect(Tok::LParen)?;
        let tok = self.lex.next()?;
        let godot4 = self.dialect.godot4_minor().is_some_and(|minor| minor > 0);
        let kind = match tok {
            Tok::RParen if godot4 => return Ok(Kind::Rid(0)),
            Tok::Int(i) if godot4 => Kind::Rid(i as u64),
            Tok::Float(f) if godot4 => Kind::Rid(f as u64),
            Tok::Int(i) => Kind::Int(i),
            Tok::Float(f) => Kind::Float(f),
            other => {
                let found = other.describe();
                return fail(
                    self.lex.start,
                    format!("expected a number as argument for RID(), found {found}"),
                );
            }
        };
        self.expect(Tok::RParen)?;
        Ok(kind)
    }

    /// `_parse_construct`: `(` numbers separated by `,` `)` into `self.args`; `count` checks
    /// the number of arguments (for fixed-size types).
    fn numbers(&mut self, count: Option<usize>, what: &str) -> Result<usize, Syntax> {
        self.args.clear();
        self.expect(Tok::LParen)?;
        let mut first = true;
        loop {
            if !first {
                let tok = self.lex.next()?;
                match tok {
                    Tok::Comma => {}
                    Tok::RParen => break,
                    other => {
                        let found = other.describe();
                        return fail(
                            self.lex.start,
                            format!("expected ',' or ')' in {what}(), found {found}"),
                        );
                    }
                }
            }
            let tok = self.lex.next()?;
            let num = match tok {
                Tok::RParen if first => break,
                Tok::Int(i) => Num::Int(i),
                Tok::Float(f) => Num::Float(f),
                Tok::Ident(id) if self.special(id, true).is_some() => {
                    Num::Float(self.special(id, true).unwrap_or(0.0))
                }
                other => {
                    let found = other.describe();
                    return fail(
                        self.lex.start,
                        format!("expected a number in {what}(), found {found}"),
                    );
                }
            };
            self.args.push(num);
            first = false;
        }
        if let Some(n) = count {
            if self.args.len() != n {
                let got = self.args.len();
                return fail(
                    self.lex.start,
                    format!("expected {n} arguments for {what}(), found {got}"),
                );
            }
        }
        Ok(self.args.len())
    }

    fn packed(&mut self, ty: VariantType, what: &str) -> Result<Kind, Syntax> {
        self.numbers(None, what)?;
        let (per, real) = match ty {
            T::PackedFloat32Array | T::PackedFloat64Array => (1, true),
            T::PackedVector2Array => (2, true),
            T::PackedVector3Array => (3, true),
            T::PackedVector4Array | T::PackedColorArray => (4, true),
            T::PackedVector2iArray => (2, false),
            T::PackedVector3iArray => (3, false),
            T::PackedVector4iArray => (4, false),
            _ => (1, false),
        };
        // The engine drops an incomplete last element.
        let n = self.args.len() / per * per;
        let args = &self.args[..n];
        if real {
            let at = self.tree.reals.len();
            for &a in args {
                let v = match ty {
                    T::PackedFloat64Array => a.f64(),
                    T::PackedVector2Array | T::PackedVector3Array | T::PackedVector4Array => {
                        self.real(a)
                    }
                    _ => f64::from(a.f32()),
                };
                self.tree.reals.push(v);
            }
            Ok(Kind::PackedReals(ty, Span { at, len: n }))
        } else {
            let at = self.tree.ints.len();
            for a in args {
                let v = match ty {
                    T::PackedByteArray => i64::from(a.u8(self.family)),
                    T::PackedInt64Array => a.i64(self.family),
                    _ => i64::from(a.i32(self.family)),
                };
                self.tree.ints.push(v);
            }
            Ok(Kind::PackedInts(ty, Span { at, len: n }))
        }
    }

    /// Godot 4's and Pandemonium's `_parse_byte_array`: a base64 string, or numbers, or
    /// nothing.
    fn bytes(&mut self) -> Result<Kind, Syntax> {
        self.expect(Tok::LParen)?;
        let at = self.lex.offset();
        let tok = self.lex.next()?;
        match tok {
            Tok::Str => {
                let Some(decoded) = base64::decode(&self.lex.text) else {
                    return fail(self.lex.start, "invalid base64-encoded string");
                };
                self.expect(Tok::RParen)?;
                let start = self.tree.ints.len();
                self.tree.ints.extend(decoded.iter().map(|&b| i64::from(b)));
                let len = decoded.len();
                Ok(Kind::PackedInts(
                    T::PackedByteArray,
                    Span { at: start, len },
                ))
            }
            _ => {
                // Re-read as a list of numbers from the '('.
                self.lex_rewind(at);
                self.packed(T::PackedByteArray, "PackedByteArray")
            }
        }
    }

    fn lex_rewind(&mut self, after_paren: usize) {
        // `numbers` expects the '(' again: step back onto it.
        self.lex.seek(after_paren.saturating_sub(1));
    }

    /// `PackedStringArray("a", "b")` (a trailing comma is allowed, as in the engine).
    fn strings(&mut self) -> Result<Kind, Syntax> {
        self.expect(Tok::LParen)?;
        let mut items = Vec::new();
        let mut first = true;
        loop {
            if !first {
                match self.lex.next()? {
                    Tok::Comma => {}
                    Tok::RParen => break,
                    other => {
                        let found = other.describe();
                        return fail(
                            self.lex.start,
                            format!("expected ',' or ')', found {found}"),
                        );
                    }
                }
            }
            let at = self.lex.offset();
            match self.lex.next()? {
                Tok::RParen => break,
                Tok::Str => {
                    let s = self.tree.add_text(&self.lex.text);
                    items.push(self.tree.push(Kind::String(s), at));
                }
                other => {
                    let found = other.describe();
                    return fail(self.lex.start, format!("expected a string, found {found}"));
                }
            }
            first = false;
        }
        Ok(Kind::PackedStrings(self.kids(&items)))
    }

    /// A typed container's element type: a builtin type name, `Resource("path")` (a script),
    /// or any other identifier (a class name; the engine checks it exists).
    fn elem_type(&mut self) -> Result<Option<Spec>, Syntax> {
        let tok = self.lex.next()?;
        let Tok::Ident(id) = tok else {
            let found = tok.describe();
            return fail(
                self.lex.start,
                format!("expected a type name, found {found}"),
            );
        };
        if id == "Variant" {
            return Ok(None);
        }
        if id == "Resource" && self.peek_is_paren() {
            self.expect(Tok::LParen)?;
            self.expect_string("Resource()")?;
            if !self.lex.text.starts_with(b"res://") {
                // The engine would fail to load it; the wire form needs a res:// path.
                let at = self.lex.start;
                return fail(
                    at,
                    "expected a res:// path as the script of a typed container",
                );
            }
            let s = self.tree.add_text(&self.lex.text);
            self.expect(Tok::RParen)?;
            return Ok(Some(Spec::Script(s)));
        }
        if let Some(ty) = self.type_named(id) {
            if ty != T::Nil {
                return Ok(Some(Spec::Builtin(ty)));
            }
        }
        Ok(Some(Spec::Class(self.tree.add_text(id.as_bytes()))))
    }

    fn peek_is_paren(&mut self) -> bool {
        let save = self.lex.offset();
        let is = self.lex.skip_blank() && self.lex.peek_byte() == Some(b'(');
        self.lex.seek(save);
        is
    }
}

/// The type of a parsed value (`None` for objects, whose class decides).
fn kind_type(kind: &Kind) -> Option<VariantType> {
    Some(match kind {
        Kind::Nil => T::Nil,
        Kind::Bool(_) => T::Bool,
        Kind::Int(_) => T::Int,
        Kind::Float(_) => T::Float,
        Kind::String(_) => T::String,
        Kind::StringName(_) => T::StringName,
        Kind::NodePath(_) => T::NodePath,
        Kind::Real(t, _)
        | Kind::IntVec(t, _)
        | Kind::PackedReals(t, _)
        | Kind::PackedInts(t, _) => *t,
        Kind::Color(_) => T::Color,
        Kind::Rid(_) => T::Rid,
        Kind::Callable => T::Callable,
        Kind::Signal => T::Signal,
        Kind::PackedStrings(_) => T::PackedStringArray,
        Kind::Array(ArrayForm::Array, ..) => T::Array,
        Kind::Array(ArrayForm::TypedArray, ..) => T::TypedArray,
        Kind::Array(ArrayForm::PackedTypedArray, ..) => T::PackedTypedArray,
        Kind::Dictionary(..) => T::Dictionary,
        Kind::ObjectId(_) | Kind::Object(..) => return None,
    })
}

/// Type names the engine line's parser knows, with its aliases.
fn type_by_name(id: &str, family: Family) -> Option<VariantType> {
    let godot4 = family == Family::Godot4;
    Some(match id {
        "Vector2" => T::Vector2,
        "Vector2i" => T::Vector2i,
        "Rect2" => T::Rect2,
        "Rect2i" => T::Rect2i,
        "Vector3" => T::Vector3,
        "Vector3i" => T::Vector3i,
        "Vector4" => T::Vector4,
        "Vector4i" => T::Vector4i,
        "Transform2D" | "Matrix32" => T::Transform2D,
        "Plane" => T::Plane,
        "Quat" => T::Quaternion,
        "Quaternion" if family != Family::Godot3 => T::Quaternion,
        "AABB" | "Rect3" => T::Aabb,
        "Basis" | "Matrix3" => T::Basis,
        "Transform" => T::Transform3D,
        "Transform3D" if godot4 => T::Transform3D,
        "Projection" => T::Projection,
        "Color" => T::Color,
        "NodePath" => T::NodePath,
        "RID" => T::Rid,
        "Callable" if godot4 => T::Callable,
        "Signal" if godot4 => T::Signal,
        "PoolByteArray" | "ByteArray" => T::PackedByteArray,
        "PoolIntArray" | "IntArray" => T::PackedInt32Array,
        "PoolRealArray" | "FloatArray" => T::PackedFloat32Array,
        "PoolStringArray" | "StringArray" => T::PackedStringArray,
        "PoolVector2Array" | "Vector2Array" => T::PackedVector2Array,
        "PoolVector3Array" | "Vector3Array" => T::PackedVector3Array,
        "PoolVector4Array" | "Vector4Array" => T::PackedVector4Array,
        "PoolColorArray" | "ColorArray" => T::PackedColorArray,
        "PoolVector2iArray" => T::PackedVector2iArray,
        "PoolVector3iArray" => T::PackedVector3iArray,
        "PoolVector4iArray" => T::PackedVector4iArray,
        // Godot 4 names: Godot 3.2.3 does not know them (later 3.x and Pandemonium do).
        _ if family == Family::Godot3 => return None,
        "PackedByteArray" => T::PackedByteArray,
        "PackedInt32Array" => T::PackedInt32Array,
        "PackedIntArray" if godot4 => T::PackedInt32Array,
        "PackedInt64Array" if godot4 => T::PackedInt64Array,
        "PackedInt64Array" => T::PackedInt32Array,
        "PackedFloat32Array" => T::PackedFloat32Array,
        "PackedRealArray" if godot4 => T::PackedFloat32Array,
        "PackedFloat64Array" if godot4 => T::PackedFloat64Array,
        "PackedFloat64Array" => T::PackedFloat32Array,
        "PackedStringArray" => T::PackedStringArray,
        "PackedVector2Array" => T::PackedVector2Array,
        "PackedVector3Array" => T::PackedVector3Array,
        "PackedVector4Array" => T::PackedVector4Array,
        "PackedColorArray" => T::PackedColorArray,
        "PackedVector2iArray" => T::PackedVector2iArray,
        "PackedVector3iArray" => T::PackedVector3iArray,
        "PackedVector4iArray" => T::PackedVector4iArray,
        // Element type names of typed containers.
        "bool" => T::Bool,
        "int" => T::Int,
        "float" => T::Float,
        "String" => T::String,
        "StringName" => T::StringName,
        "Object" => T::Object,
        "Dictionary" => T::Dictionary,
        "Array" => T::Array,
        "Nil" => T::Nil,
        _ => return None,
    })
}
