//! Serde field readers that never fail the whole: an absent, `null` or wrongly typed value
//! reads as `None`. For every input baton does not own: hook and statusline payloads,
//! transcripts, the bridge file, the task list, GSD's config.json and baton's own config.
//! Use with `#[serde(default, deserialize_with = "…")]`.

use serde::{Deserialize, Deserializer, de::DeserializeOwned};
use serde_json::Value;

/// Deserializes any value, keeping it only when it has the expected type.
pub fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// Reads a token count or percentage given as an integer or a float (never negative).
pub fn lenient_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(Value::deserialize(d)?.as_f64().filter(|n| n.is_finite() && *n >= 0.0))
}

/// Reads a token count: a non-negative integer as it is, a float as [`count_of_float`] reads
/// it; any other value (a string, a negative number, `null`) is `None`, never 0.
pub fn lenient_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(count_of(&Value::deserialize(d)?))
}

/// A token count as [`lenient_count`] reads it from a value already parsed.
pub fn count_of(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| value.as_f64().and_then(count_of_float))
}

/// A token count written as a float (`4.6`, `1e3`): rounded when finite and not negative.
pub fn count_of_float(n: f64) -> Option<u64> {
    (n.is_finite() && n >= 0.0).then(|| n.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Fields {
        #[serde(default, deserialize_with = "lenient")]
        text: Option<String>,
        #[serde(default, deserialize_with = "lenient_number")]
        number: Option<f64>,
        #[serde(default, deserialize_with = "lenient_count")]
        count: Option<u64>,
    }

    fn read(json: &str) -> (Option<String>, Option<f64>, Option<u64>) {
        let f: Fields = serde_json::from_str(json).unwrap();
        (f.text, f.number, f.count)
    }

    #[test]
    fn values_of_the_expected_type_are_kept() {
        assert_eq!(
            read(r#"{"text":"a","number":12.5,"count":150000}"#),
            (Some("a".into()), Some(12.5), Some(150_000))
        );
        assert_eq!(read(r#"{"number":7,"count":4.6}"#), (None, Some(7.0), Some(5)));
        assert_eq!(read(r#"{"count":1e3}"#).2, Some(1000));
    }

    #[test]
    fn null_missing_negative_and_wrongly_typed_values_are_absent() {
        assert_eq!(read("{}"), (None, None, None));
        assert_eq!(read(r#"{"text":null,"number":null,"count":null}"#), (None, None, None));
        assert_eq!(read(r#"{"text":7,"number":"12","count":"150000"}"#), (None, None, None));
        assert_eq!(read(r#"{"number":-1,"count":-5}"#), (None, None, None));
        assert_eq!(read(r#"{"number":[1],"count":{"n":1}}"#), (None, None, None));
        assert_eq!(count_of_float(f64::NAN), None);
    }
}
