//! Serde field readers that never fail the whole: an absent, `null` or wrongly typed value
//! reads as `None`. For every input baton does not own: hook and statusline payloads,
//! transcripts, the bridge file, the task list, GSD's config.json and baton's own config.
//! Use with `#[serde(default, deserialize_with = "…")]`.

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, de::DeserializeOwned};
use serde_json::Value;

/// The methods of a `Visitor` whose `Value` is an `Option` that read every shape but the one
/// the visitor takes (arrays, strings, numbers, booleans, null) as `None`, an array skipped
/// without building it.
macro_rules! other_shapes_are_none {
    () => {
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    };
}
pub(crate) use other_shapes_are_none;

/// Deserializes any value, keeping it only when it has the expected type.
pub fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// Reads an object into `T` straight from the input, skipping the members `T` does not name
/// without building them (a reply's `content` can be megabytes); any other shape is absent.
/// `T` must itself read every member leniently, so that an object never fails.
pub fn lenient_object<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    struct ObjectOrNone<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOrNone<T> {
        type Value = Option<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("any value")
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Some)
        }
        crate::json::lenient::other_shapes_are_none!();
    }
    d.deserialize_any(ObjectOrNone(std::marker::PhantomData))
}

/// One JSON value as met, read without building a `Value` (arrays and objects are skipped):
/// what the scalar readers below share. `Missing` is the default of an absent field.
#[derive(Debug, Default, Clone, PartialEq)]
pub enum Scalar {
    #[default]
    Missing,
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(String),
    /// An array or an object.
    Container,
}

impl Scalar {
    /// A token count: a non-negative integer, or a float as [`count_of_float`] reads it.
    pub fn count(&self) -> Option<u64> {
        match *self {
            Scalar::Unsigned(n) => Some(n),
            Scalar::Signed(n) => u64::try_from(n).ok(),
            Scalar::Float(n) => count_of_float(n),
            _ => None,
        }
    }

    /// A number that is finite and not negative.
    pub fn number(&self) -> Option<f64> {
        let n = match *self {
            Scalar::Unsigned(n) => n as f64,
            Scalar::Signed(n) => n as f64,
            Scalar::Float(n) => n,
            _ => return None,
        };
        (n.is_finite() && n >= 0.0).then_some(n)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ScalarVisitor;
        impl<'de> Visitor<'de> for ScalarVisitor {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Null)
            }
            fn visit_none<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar::Unsigned(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Signed(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
                Ok(Scalar::Text(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Container)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Container)
            }
        }
        d.deserialize_any(ScalarVisitor)
    }
}

/// Reads a string; any other value is absent.
pub fn lenient_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(text) => Some(text),
        _ => None,
    })
}

/// Reads a boolean; any other value is absent.
pub fn lenient_flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Bool(flag) => Some(flag),
        _ => None,
    })
}

/// Reads a token count or percentage given as an integer or a float (never negative).
pub fn lenient_number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(Scalar::deserialize(d)?.number())
}

/// Reads a token count: a non-negative integer as it is, a float as [`count_of_float`] reads
/// it; any other value (a string, a negative number, `null`) is `None`, never 0.
pub fn lenient_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(Scalar::deserialize(d)?.count())
}

/// A token count written as a float (`4.6`, `1e3`): rounded when finite and not negative.
pub fn count_of_float(n: f64) -> Option<u64> {
    (n.is_finite() && n >= 0.0).then(|| n.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Inner {
        #[serde(default, deserialize_with = "lenient")]
        id: Option<String>,
    }

    #[test]
    fn objects_are_read_in_place_and_other_shapes_are_absent() {
        #[derive(Deserialize)]
        struct Outer {
            #[serde(default, deserialize_with = "lenient_object")]
            inner: Option<Inner>,
        }
        let read = |json: &str| serde_json::from_str::<Outer>(json).unwrap().inner;
        assert_eq!(
            read(r#"{"inner":{"id":"m1","content":[{"big":"x"}]}}"#),
            Some(Inner { id: Some("m1".into()) })
        );
        assert_eq!(read(r#"{"inner":{"id":7}}"#), Some(Inner { id: None }));
        for other in ["null", "[1,{}]", r#""text""#, "5", "true"] {
            assert_eq!(read(&format!(r#"{{"inner":{other}}}"#)), None, "{other}");
        }
    }

    #[test]
    fn scalars_are_read_without_building_containers() {
        #[derive(Deserialize)]
        struct Line {
            #[serde(default, deserialize_with = "lenient_text")]
            kind: Option<String>,
            #[serde(default, deserialize_with = "lenient_flag")]
            side: Option<bool>,
        }
        let read = |json: &str| {
            let l: Line = serde_json::from_str(json).unwrap();
            (l.kind, l.side)
        };
        assert_eq!(
            read(r#"{"kind":"assistant","side":false}"#),
            (Some("assistant".into()), Some(false))
        );
        assert_eq!(read(r#"{"kind":7,"side":"no"}"#), (None, None));
        assert_eq!(read(r#"{"kind":{"a":[1,{"b":2}]},"side":[true]}"#), (None, None));
        assert_eq!(read("{}"), (None, None));
        let s: Scalar = serde_json::from_str("-3").unwrap();
        assert_eq!((s.count(), s.number()), (None, None));
        let s: Scalar = serde_json::from_str("4.6").unwrap();
        assert_eq!((s.count(), s.number()), (Some(5), Some(4.6)));
    }

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
