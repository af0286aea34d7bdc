//! The hooks' stdin reader (`hook::stdin`) against serde_json's stream parser: when the input
//! starts (after whitespace and a byte order mark) with a JSON object, the reader returns
//! exactly that object's bytes, whatever follows it; what it returns always starts at the
//! first brace and is a prefix of the rest of the input (on input that is not JSON it may
//! stop at any bracket that balances the first: serde then refuses it); input that starts
//! with anything else is not an object.

#![no_main]

use baton::hook::stdin::ReadFailure;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let read = baton_fuzz::first_object(data);
    let lead = data
        .iter()
        .enumerate()
        .position(|(i, &b)| !(matches!(b, b' ' | b'\t' | b'\n' | b'\r') || (i < 3 && matches!(b, 0xEF | 0xBB | 0xBF))));
    let Some(start) = lead.filter(|&i| data[i] == b'{') else {
        let expected = if lead.is_some() {
            ReadFailure::NotAnObject
        } else {
            ReadFailure::Incomplete
        };
        assert_eq!(read.map(|(_, bytes)| bytes), Err(expected));
        return;
    };
    let rest = &data[start..];
    let mut stream = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
    let parsed = match stream.next() {
        Some(Ok(Value::Object(_))) => Some(stream.byte_offset()),
        _ => None,
    };
    match (read, parsed) {
        (Ok((begin, bytes)), parsed) => {
            assert_eq!(begin, start);
            assert!(rest.starts_with(&bytes), "not the input's own bytes");
            if let Some(end) = parsed {
                assert_eq!(
                    bytes.len(),
                    end,
                    "the reader cut the object elsewhere than a JSON parser"
                );
            }
        }
        (Err(why), Some(end)) => panic!("a complete object of {end} bytes read as {why:?}"),
        (Err(why), None) => assert_eq!(why, ReadFailure::Incomplete),
    }
});
