//! Time in one place: now as Unix seconds (the unit of GSD's bridge `timestamp`), transcript
//! timestamps as Unix milliseconds (a fast path for the client's own
//! `2026-11-30T00:10:41.140Z`), `--since` values, and display forms.

use chrono::{DateTime, Local, NaiveDate, TimeZone, Utc};

use crate::error::{Error, Result};

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Unix milliseconds of an RFC 3339 timestamp; `None` when it is not one.
pub fn timestamp_millis(text: &str) -> Option<i64> {
    fast_utc_millis(text.as_bytes()).or_else(|| DateTime::parse_from_rfc3339(text).ok().map(|t| t.timestamp_millis()))
}

/// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, what JavaScript's `toISOString` writes, without a parser.
fn fast_utc_millis(b: &[u8]) -> Option<i64> {
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        b.get(range)?
            .iter()
            .try_fold(0u32, |n, &c| c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0')))
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let millis = match &b[19..] {
        [b'Z'] => 0,
        [b'.', a, b2, c, b'Z'] if [a, b2, c].iter().all(|d| d.is_ascii_digit()) => {
            u32::from(a - b'0') * 100 + u32::from(b2 - b'0') * 10 + u32::from(c - b'0')
        }
        _ => return None,
    };
    let date = NaiveDate::from_ymd_opt(digits(0..4)? as i32, digits(5..7)?, digits(8..10)?)?;
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = date
        .signed_duration_since(NaiveDate::from_ymd_opt(1970, 1, 1)?)
        .num_days();
    Some(
        ((days * 24 + i64::from(hour)) * 60 + i64::from(minute)) * 60_000
            + i64::from(second) * 1000
            + i64::from(millis),
    )
}

/// Reads `--since`: a date (`2026-11-30`, local midnight), a date-time (RFC 3339, or
/// `2026-11-30 14:00` local), or a duration ago (`90m`, `3h`, `2days`). Returns Unix ms.
pub fn parse_since(text: &str, now: DateTime<Utc>) -> Result<i64> {
    let text = text.trim();
    if let Ok(ago) = humantime::parse_duration(text) {
        // Longer ago than the calendar reaches (`100000000days`) is a wrong value, not a panic.
        let start = chrono::Duration::from_std(ago)
            .ok()
            .and_then(|ago| now.checked_sub_signed(ago))
            .ok_or_else(|| {
                Error::Usage(format!(
                    "--since {text:?} reaches back before the calendar baton can count; give a shorter duration \
                     or a date (2026-11-30)"
                ))
            })?;
        return Ok(start.timestamp_millis());
    }
    if let Some(ms) = timestamp_millis(text) {
        return Ok(ms);
    }
    for format in [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%dT%H:%M",
    ] {
        if let Ok(naive) = chrono::NaiveDateTime::parse_from_str(text, format) {
            return local_millis(naive).ok_or_else(|| since_error(text));
        }
    }
    for format in ["%Y-%m-%d", "%Y%m%d"] {
        if let Ok(date) = NaiveDate::parse_from_str(text, format) {
            return local_millis(date.and_hms_opt(0, 0, 0).ok_or_else(|| since_error(text))?)
                .ok_or_else(|| since_error(text));
        }
    }
    Err(since_error(text))
}

fn local_millis(naive: chrono::NaiveDateTime) -> Option<i64> {
    Local
        .from_local_datetime(&naive)
        .earliest()
        .map(|t| t.timestamp_millis())
}

fn since_error(text: &str) -> Error {
    Error::Usage(format!(
        "--since {text:?}: give a date (2026-11-30), a time (2026-11-30T14:00:00Z or \"2026-11-30 14:00\") \
         or a duration ago (90m, 3h, 2days)"
    ))
}

/// A Unix-ms time as local `YYYY-MM-DD HH:MM`.
pub fn local_minute(ms: i64) -> String {
    Local
        .timestamp_millis_opt(ms)
        .earliest()
        .map_or_else(String::new, |t| t.format("%Y-%m-%d %H:%M").to_string())
}

/// A Unix-ms time as RFC 3339 UTC (for JSON and `git log --since`).
pub fn utc_rfc3339(ms: i64) -> String {
    Utc.timestamp_millis_opt(ms)
        .earliest()
        .map_or_else(String::new, |t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
}

/// A span of milliseconds as `2h 35m`, `12m`, `40s`.
pub fn span(ms: i64) -> String {
    let secs = ms.max(0) / 1000;
    let (hours, minutes) = (secs / 3600, secs % 3600 / 60);
    match (hours, minutes) {
        (0, 0) => format!("{secs}s"),
        (0, m) => format!("{m}m"),
        (h, m) => format!("{h}h {m}m"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_path_agrees_with_chrono() {
        for text in [
            "2026-11-30T00:10:41.140Z",
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59.999Z",
            "1969-12-31T23:59:59.500Z",
        ] {
            let chrono = DateTime::parse_from_rfc3339(text).unwrap().timestamp_millis();
            assert_eq!(fast_utc_millis(text.as_bytes()), Some(chrono), "{text}");
        }
        assert_eq!(fast_utc_millis(b"2026-13-30T00:10:41.140Z"), None);
        assert_eq!(fast_utc_millis(b"2026-11-30T00:10:41+02:00"), None);
        assert_eq!(
            timestamp_millis("2026-11-30T02:10:41+02:00"),
            timestamp_millis("2026-11-30T00:10:41Z")
        );
        assert_eq!(timestamp_millis("yesterday"), None);
    }

    #[test]
    fn since_takes_durations_dates_and_times() {
        let now = DateTime::parse_from_rfc3339("2026-11-30T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let hour = 3_600_000;
        assert_eq!(parse_since("3h", now).unwrap(), now.timestamp_millis() - 3 * hour);
        assert_eq!(parse_since("90m", now).unwrap(), now.timestamp_millis() - hour * 3 / 2);
        assert_eq!(
            parse_since("2026-11-30T10:00:00Z", now).unwrap(),
            now.timestamp_millis() - 2 * hour
        );
        assert!(parse_since("2026-11-30", now).is_ok());
        assert!(parse_since("2026-11-30 09:30", now).is_ok());
        let err = parse_since("last tuesday", now).unwrap_err().to_string();
        assert!(err.contains("duration ago"), "{err}");
        for too_long in ["100000000days", "1000000years", "584542046090years"] {
            assert!(matches!(parse_since(too_long, now), Err(Error::Usage(_))), "{too_long}");
        }
    }

    #[test]
    fn spans_read_like_a_person_writes_them() {
        assert_eq!(span(40_000), "40s");
        assert_eq!(span(12 * 60_000 + 5000), "12m");
        assert_eq!(span((2 * 60 + 35) * 60_000), "2h 35m");
    }
}
