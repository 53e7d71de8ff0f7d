//! `gdwire::text::parse`: the engine's text form back to wire bytes.

use gdwire::{text, Dialect};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn smoke() {
    for (d, t) in [
        (Dialect::GODOT_3, "[1,2,]"),
        (Dialect::GODOT_3, "{\"a\":1,\"a\":2}"),
        (Dialect::GODOT_3, "Vector2( 1, 2 )"),
        (Dialect::GODOT_3, "NodePath(\"a/b:c\")"),
        (Dialect::GODOT_3, "PoolByteArray(300, -1)"),
        (Dialect::GODOT_4, "Array[int]([1, 2])"),
        (Dialect::GODOT_4, "Dictionary[String, int]({\n\"a\": 1\n})"),
        (Dialect::GODOT_4, "&\"x\""),
    ] {
        println!("{t:?} => {:?}", text::parse(d, t).map(|b| hex(&b)));
    }
}
