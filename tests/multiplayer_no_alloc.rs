//! Parsing a multiplayer packet and walking every value in it allocates nothing, for every
//! packet of a synthetic capture (RPCs, full and delta syncs) and for malformed ones.

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/mp_capture.rs"]
mod mp_capture;

use counting_alloc::allocations_in;
use gdwire::multiplayer::{Args, Packet, Sys};
use gdwire::VariantRef;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

fn touch(v: VariantRef<'_>, sum: &mut f64) {
    match v {
        VariantRef::Int(i) => *sum += i as f64,
        VariantRef::Float(f) => *sum += f,
        VariantRef::Bool(b) => *sum += f64::from(u8::from(b)),
        VariantRef::Vector3(m) => *sum += m.get().x,
        VariantRef::String(s) => *sum += s.bytes().len() as f64,
        _ => {}
    }
}

fn walk(p: &Packet<'_>, sum: &mut f64) -> gdwire::Result<usize> {
    let mut n = 0;
    match *p {
        Packet::RemoteCall(c) => {
            if let Args::Values(v) = c.args {
                for x in v {
                    touch(x, sum);
                    n += 1;
                }
            }
        }
        Packet::Sync(s) => {
            for e in s.entries {
                for x in e.values {
                    touch(x, sum);
                    n += 1;
                }
            }
        }
        Packet::Spawn(s) => {
            for x in s.state {
                touch(x, sum);
                n += 1;
            }
        }
        Packet::Sys(Sys::Relay(r)) => n += walk(&r.inner()?, sum)?,
        _ => {}
    }
    Ok(n)
}

#[test]
fn parse_and_walk_allocate_nothing() {
    let (bytes, ranges) = mp_capture::capture(50);
    assert_eq!(ranges.len(), 50 * 4 * 3);
    let mut sum = 0.0;
    let mut values = 0;
    let mut errors = 0;
    let allocs = allocations_in(|| {
        for r in &ranges {
            let packet = &bytes[r.clone()];
            let p = Packet::parse(packet).unwrap();
            values += walk(&p, &mut sum).unwrap();
            // Every packet cut short: an error or a shorter packet, still without allocating.
            for cut in [1, packet.len() / 2, packet.len() - 1] {
                match Packet::parse(&packet[..cut]) {
                    Ok(p) => values += walk(&p, &mut sum).unwrap(),
                    Err(_) => errors += 1,
                }
            }
        }
    });
    assert_eq!(allocs, 0);
    assert!(values > 2000 && errors > 400, "{values} {errors}");
    assert!(sum.is_finite());
}
