//! Seeds in JSON, exact: a seed above 2^53 is a string, since a page's
//! JavaScript numbers round it (2704424261829100852 would come back as
//! 2704424261829101000, another machine); a seed is read from either.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;

/// The largest integer every JSON reader keeps exactly.
const EXACT: u64 = 1 << 53;

/// `seed` as a JSON number up to 2^53, above it as a string of its digits.
pub fn serialize<S: Serializer>(seed: &Option<u64>, out: S) -> Result<S::Ok, S::Error> {
    match *seed {
        None => out.serialize_none(),
        Some(n) if n <= EXACT => out.serialize_u64(n),
        Some(n) => out.collect_str(&n),
    }
}

/// A seed given as a whole number, or as a string of its digits.
pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Option<u64>, D::Error> {
    struct Seed;
    impl<'de> Visitor<'de> for Seed {
        type Value = Option<u64>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a seed: a whole number from 0 to 18446744073709551615, as a number or a string of digits")
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, input: D) -> Result<Self::Value, D::Error> {
            input.deserialize_any(Seed)
        }

        fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
            Ok(Some(n))
        }

        fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
            u64::try_from(n)
                .map(Some)
                .map_err(|_| E::custom(format_args!("seed {n}: expected a whole number from 0")))
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
            text.trim().parse().map(Some).map_err(|_| {
                E::custom(format_args!(
                    "seed {text:?}: expected a whole number from 0 to 18446744073709551615"
                ))
            })
        }
    }
    input.deserialize_option(Seed)
}

#[cfg(test)]
mod tests {
    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Has {
        #[serde(with = "super", default)]
        seed: Option<u64>,
    }

    #[test]
    fn a_seed_above_two_to_the_53_is_a_string_and_reads_back_exactly() {
        let big = Has {
            seed: Some(2704424261829100852),
        };
        let text = serde_json::to_string(&big).unwrap();
        assert_eq!(text, r#"{"seed":"2704424261829100852"}"#);
        assert_eq!(serde_json::from_str::<Has>(&text).unwrap(), big);
        assert_eq!(
            serde_json::to_string(&Has { seed: Some(1 << 53) }).unwrap(),
            r#"{"seed":9007199254740992}"#
        );
        assert_eq!(
            serde_json::from_str::<Has>(r#"{"seed":7}"#).unwrap(),
            Has { seed: Some(7) }
        );
        assert_eq!(
            serde_json::from_str::<Has>(r#"{"seed":null}"#).unwrap(),
            Has { seed: None }
        );
        assert_eq!(serde_json::from_str::<Has>("{}").unwrap(), Has { seed: None });
        for bad in [
            r#"{"seed":-1}"#,
            r#"{"seed":"x"}"#,
            r#"{"seed":1.5}"#,
            r#"{"seed":"18446744073709551616"}"#,
        ] {
            let e = serde_json::from_str::<Has>(bad).unwrap_err().to_string();
            assert!(e.contains("seed"), "{bad}: {e}");
        }
    }
}
