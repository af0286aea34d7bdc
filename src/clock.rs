//! Time in one place: now as Unix seconds (the unit of GSD's bridge `timestamp`), transcript
//! timestamps as Unix milliseconds (a fast path for the client's own
//! `2026-11-30T00:10:41.140Z`), `--since` values, local wall-clock time, and display forms.
//! The local zone's offset comes from the system (`platform::zone`), not from a zone database.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, TimeZone, Utc};

use crate::error::{Error, Result};

/// Seconds since the Unix epoch (0 if the clock is before it).
pub fn unix_now() -> u64 {
    unix_secs(std::time::SystemTime::now())
}

/// `t` as seconds since the Unix epoch (0 if it is before it): a file's modification time,
/// say, to compare with [`unix_now`].
pub fn unix_secs(t: std::time::SystemTime) -> u64 {
    t.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
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
        if let Ok(naive) = NaiveDateTime::parse_from_str(text, format) {
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

/// Unix ms of a local wall-clock time; the earlier of two when the clock was set back over
/// it, `None` when the clock jumped over it.
fn local_millis(naive: NaiveDateTime) -> Option<i64> {
    local_to_utc_millis(naive, crate::platform::zone::utc_offset)
}

/// [`local_millis`] for a zone given by its offset (seconds east of UTC) at each instant. An
/// offset in force on that wall-clock time is one in force the day before or the day after
/// (no zone changes its offset twice within two days); each that reads back as itself fits.
fn local_to_utc_millis(naive: NaiveDateTime, utc_offset: impl Fn(i64) -> Option<i32>) -> Option<i64> {
    let as_utc = naive.and_utc().timestamp();
    [as_utc - 86_400, as_utc + 86_400]
        .into_iter()
        .filter_map(&utc_offset)
        .filter_map(|offset| {
            let instant = as_utc - i64::from(offset);
            (utc_offset(instant) == Some(offset)).then_some(instant)
        })
        .min()
        .map(|secs| secs * 1000 + i64::from(naive.and_utc().timestamp_subsec_millis()))
}

/// A Unix-ms time in the local zone, with the offset in force then.
pub fn local(ms: i64) -> Option<DateTime<FixedOffset>> {
    local_in(ms, crate::platform::zone::utc_offset)
}

fn local_in(ms: i64, utc_offset: impl Fn(i64) -> Option<i32>) -> Option<DateTime<FixedOffset>> {
    let utc = DateTime::from_timestamp_millis(ms)?;
    let offset = FixedOffset::east_opt(utc_offset(utc.timestamp())?)?;
    Some(utc.with_timezone(&offset))
}

/// Today's local date as `YYYYMMDD` (UTC's when the system cannot say).
pub fn local_today() -> String {
    let now = Utc::now();
    match local(now.timestamp_millis()) {
        Some(t) => t.format("%Y%m%d").to_string(),
        None => now.format("%Y%m%d").to_string(),
    }
}

fn since_error(text: &str) -> Error {
    Error::Usage(format!(
        "--since {text:?}: give a date (2026-11-30), a time (2026-11-30T14:00:00Z or \"2026-11-30 14:00\") \
         or a duration ago (90m, 3h, 2days)"
    ))
}

/// A Unix-ms time as local `YYYY-MM-DD HH:MM`.
pub fn local_minute(ms: i64) -> String {
    local(ms).map_or_else(String::new, |t| t.format("%Y-%m-%d %H:%M").to_string())
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

/// A span of seconds in a few cells, for the statusline: `45s`, `12m`, `1h20m`, `3d4h`.
pub fn short_span(secs: u64) -> String {
    let (days, hours, minutes) = (secs / 86_400, secs % 86_400 / 3600, secs % 3600 / 60);
    match (days, hours, minutes) {
        (0, 0, 0) => format!("{secs}s"),
        (0, 0, m) => format!("{m}m"),
        (0, h, 0) => format!("{h}h"),
        (0, h, m) => format!("{h}h{m}m"),
        (d, 0, _) => format!("{d}d"),
        (d, h, _) => format!("{d}d{h}h"),
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

    /// New York's rule in 2026: EST (-5 h), EDT (-4 h) from 8 March 07:00 UTC to 1 November
    /// 06:00 UTC.
    fn new_york(secs: i64) -> Option<i32> {
        let edt = (1_772_953_200..1_793_512_800).contains(&secs);
        Some(if edt { -4 * 3600 } else { -5 * 3600 })
    }

    fn wall(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn local_wall_clock_times_become_instants_across_daylight_saving() {
        let utc = |text: &str| timestamp_millis(text).unwrap();
        let at = |text: &str| local_to_utc_millis(wall(text), new_york);
        assert_eq!(at("2026-01-15 09:00"), Some(utc("2026-01-15T14:00:00Z")));
        assert_eq!(at("2026-07-01 09:00"), Some(utc("2026-07-01T13:00:00Z")));
        // The clock jumps from 02:00 to 03:00: 02:30 never happened.
        assert_eq!(at("2026-03-08 02:30"), None);
        assert_eq!(at("2026-03-08 03:30"), Some(utc("2026-03-08T07:30:00Z")));
        // The clock goes back from 02:00 to 01:00: 01:30 happened twice; the first counts.
        assert_eq!(at("2026-11-01 01:30"), Some(utc("2026-11-01T05:30:00Z")));
        assert_eq!(at("2026-11-01 02:30"), Some(utc("2026-11-01T07:30:00Z")));
        // A zone that never changes: India.
        let india = |_| Some(19_800);
        assert_eq!(
            local_to_utc_millis(wall("2026-11-30 00:10"), india),
            Some(utc("2026-11-29T18:40:00Z"))
        );
        assert_eq!(local_to_utc_millis(wall("2026-11-30 00:10"), |_| None), None);
    }

    #[test]
    fn instants_show_in_the_offset_in_force_then() {
        let shown = |text: &str| {
            local_in(timestamp_millis(text).unwrap(), new_york)
                .unwrap()
                .format("%Y-%m-%d %H:%M %:z")
                .to_string()
        };
        assert_eq!(shown("2026-01-15T14:00:00Z"), "2026-01-15 09:00 -05:00");
        assert_eq!(shown("2026-07-01T13:00:00Z"), "2026-07-01 09:00 -04:00");
        assert_eq!(shown("2026-11-30T02:00:00Z"), "2026-11-29 21:00 -05:00");
        assert_eq!(local_in(0, |_| Some(90_000)), None, "an offset over a day is refused");
    }

    #[test]
    fn spans_read_like_a_person_writes_them() {
        assert_eq!(span(40_000), "40s");
        assert_eq!(span(12 * 60_000 + 5000), "12m");
        assert_eq!(span((2 * 60 + 35) * 60_000), "2h 35m");
    }

    #[test]
    fn short_spans_fit_a_statusline() {
        assert_eq!(short_span(45), "45s");
        assert_eq!(short_span(12 * 60 + 5), "12m");
        assert_eq!(short_span(3600), "1h");
        assert_eq!(short_span(80 * 60), "1h20m");
        assert_eq!(short_span(3 * 86_400 + 4 * 3600 + 59), "3d4h");
        assert_eq!(short_span(2 * 86_400), "2d");
    }
}
