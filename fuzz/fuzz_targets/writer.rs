//! The streaming writer driven by arbitrary call sequences: whatever it finishes, the reader
//! accepts as exactly one value, and re-encoding the decoded value gives the same bytes.
//! Errors from individual calls are fine (they are the writer refusing bad sequences).
#![no_main]

use gdwire::math::{Color, Vector2, Vector3};
use gdwire::{to_vec, ContainerTypeSpec, Decoder, Dialect, Precision, VariantType, Writer};
use libfuzzer_sys::fuzz_target;

struct Input<'a>(&'a [u8]);

impl<'a> Input<'a> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.0.len());
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        head
    }
    fn u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        b[..].copy_from_slice(&{
            let s = self.bytes(8);
            let mut a = [0u8; 8];
            a[..s.len()].copy_from_slice(s);
            a
        });
        u64::from_le_bytes(b)
    }
    fn f64(&mut self) -> f64 {
        f64::from_bits(self.u64())
    }
    fn text(&mut self) -> String {
        let n = self.byte() as usize % 12;
        String::from_utf8_lossy(self.bytes(n)).into_owned()
    }
    fn len(&mut self) -> usize {
        match self.byte() {
            255 => usize::MAX,
            254 => i32::MAX as usize + 1,
            b => b as usize % 6,
        }
    }
    fn spec<'n>(&mut self, name: &'n mut String) -> ContainerTypeSpec<'n> {
        match self.byte() % 4 {
            0 => ContainerTypeSpec::Builtin(VariantType::ALL[self.byte() as usize % VariantType::ALL.len()]),
            1 => {
                *name = self.text();
                ContainerTypeSpec::ClassName(name)
            }
            2 => {
                *name = format!("res://{}", self.text());
                ContainerTypeSpec::Script(name)
            }
            _ => ContainerTypeSpec::Builtin(VariantType::Nil),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let dialect = Dialect::ALL[input.byte() as usize % Dialect::ALL.len()];
    let flags = input.byte();
    let precision = if flags & 2 != 0 { Precision::Double } else { Precision::Single };
    let mut w = Writer::new(Vec::new(), dialect)
        .with_full_objects(flags & 1 != 0)
        .with_precision(precision)
        .with_heap_spill(flags & 4 != 0);
    for _ in 0..200 {
        if input.0.is_empty() {
            break;
        }
        let (mut n1, mut n2) = (String::new(), String::new());
        let _ = match input.byte() % 26 {
            0 => w.nil(),
            1 => w.bool(input.byte() & 1 == 1),
            2 => w.int(input.u64() as i64),
            3 => w.float(input.f64()),
            4 => w.string(&input.text()),
            5 => w.string_bytes(input.bytes(5)),
            6 => w.string_name(&input.text()),
            7 => w.vector2(Vector2 { x: input.f64(), y: input.f64() }),
            8 => w.vector3(Vector3 { x: input.f64(), y: input.f64(), z: input.f64() }),
            9 => w.color(Color { r: input.f64() as f32, g: 0.5, b: -0.0, a: f32::NAN }),
            10 => w.node_path_str(&input.text()),
            11 => {
                let (a, b) = (input.text(), input.text());
                w.node_path(&[a], &[b], input.byte() & 1 == 1)
            }
            12 => w.rid(input.u64()),
            13 => w.object_id(input.u64()),
            14 => {
                let (class, n) = (input.text(), input.len());
                w.begin_object(&class, n)
            }
            15 => w.property_name(&input.text()),
            16 => w.callable(),
            17 => w.signal(&input.text(), input.u64()),
            18 => w.begin_array(input.len()),
            19 => {
                let n = input.len();
                let spec = input.spec(&mut n1);
                w.begin_typed_array(n, spec)
            }
            20 => {
                let n = input.len();
                let spec = input.spec(&mut n1);
                w.begin_packed_typed_array(n, spec)
            }
            21 => w.begin_dictionary(input.len()),
            22 => {
                let n = input.len();
                let k = input.spec(&mut n1);
                let v = input.spec(&mut n2);
                w.begin_typed_dictionary(n, k, v)
            }
            23 => w.packed_bytes(input.bytes(7)),
            24 => {
                let items: Vec<String> = (0..input.byte() % 4).map(|_| input.text()).collect();
                w.packed_strings(&items)
            }
            _ => match input.byte() % 8 {
                0 => w.packed_i32([1, -2, i32::MIN]),
                1 => w.packed_i64([input.u64() as i64]),
                2 => w.packed_f32([input.f64() as f32]),
                3 => w.packed_f64([input.f64(), 1.5]),
                4 => w.packed_vector2([[input.f64(), 2.0]]),
                5 => w.packed_vector3([[1.0f32, 2.0, input.f64() as f32]]),
                6 => w.packed_color([[0.0f32, 1.0, 2.0, 3.0]]),
                _ => w.packed_vector2i([[1, 2], [3, 4]]),
            },
        };
    }
    let Ok(len) = w.finish() else { return };
    let out = w.into_sink();
    assert_eq!(len, out.len());
    let dec = Decoder::new(dialect).with_allow_objects(true);
    let v = dec
        .decode_exact(&out)
        .unwrap_or_else(|e| panic!("reader rejects writer output {out:02x?}: {e}"));
    let again = to_vec(dialect, &v).expect("re-encoding writer output failed");
    assert_eq!(again, out, "writer output is not canonical");
});
