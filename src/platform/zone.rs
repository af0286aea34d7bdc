//! The local time zone's offset from UTC at an instant, asked of the system: `localtime_r`'s
//! `tm_gmtoff` on Unix (which reads `TZ` and `/etc/localtime` as every other program does),
//! `SystemTimeToTzSpecificLocalTime` on Windows (the zone set in Windows, with its daylight
//! saving rules). Turning a local wall-clock time back into an instant is `clock`'s job.

/// Seconds east of UTC of the local time zone at `unix_secs`; `None` when the system cannot
/// say (a time out of its range).
pub fn utc_offset(unix_secs: i64) -> Option<i32> {
    imp::utc_offset(unix_secs)
}

#[cfg(unix)]
mod imp {
    use std::sync::Once;

    unsafe extern "C" {
        /// POSIX; not every libc's `localtime_r` reads `TZ` on its own.
        fn tzset();
    }

    pub fn utc_offset(unix_secs: i64) -> Option<i32> {
        static TZSET: Once = Once::new();
        // SAFETY: tzset has no preconditions; it runs once, before the first localtime_r.
        TZSET.call_once(|| unsafe { tzset() });
        // `time_t`, inferred from localtime_r's parameter (the libc crate marks the type's
        // name deprecated on musl): i64 where baton ships, narrower on some 32-bit systems.
        #[allow(clippy::useless_conversion)]
        let time = unix_secs.try_into().ok()?;
        // SAFETY: an all-zero `tm` is a valid value to be overwritten.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are to live, writable locals of the right types.
        if unsafe { libc::localtime_r(&time, &mut tm) }.is_null() {
            return None;
        }
        i32::try_from(tm.tm_gmtoff).ok()
    }
}

#[cfg(windows)]
mod imp {
    use chrono::{Datelike, NaiveDate, Timelike};
    use windows_sys::Win32::Foundation::SYSTEMTIME;
    use windows_sys::Win32::System::Time::SystemTimeToTzSpecificLocalTime;

    pub fn utc_offset(unix_secs: i64) -> Option<i32> {
        let utc = chrono::DateTime::from_timestamp(unix_secs, 0)?.naive_utc();
        let system = SYSTEMTIME {
            wYear: u16::try_from(utc.year()).ok()?,
            wMonth: utc.month() as u16,
            wDayOfWeek: utc.weekday().num_days_from_sunday() as u16,
            wDay: utc.day() as u16,
            wHour: utc.hour() as u16,
            wMinute: utc.minute() as u16,
            wSecond: utc.second() as u16,
            wMilliseconds: 0,
        };
        // SAFETY: an all-zero SYSTEMTIME is a valid value to be overwritten.
        let mut local: SYSTEMTIME = unsafe { std::mem::zeroed() };
        // A null zone is the one currently set, with the daylight rule in force at `utc`.
        // SAFETY: `system` and `local` are live locals of the types the call takes.
        if unsafe { SystemTimeToTzSpecificLocalTime(std::ptr::null(), &system, &mut local) } == 0 {
            return None;
        }
        let local = NaiveDate::from_ymd_opt(i32::from(local.wYear), u32::from(local.wMonth), u32::from(local.wDay))?
            .and_hms_opt(
                u32::from(local.wHour),
                u32::from(local.wMinute),
                u32::from(local.wSecond),
            )?;
        i32::try_from((local - utc).num_seconds()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_offset_is_a_whole_number_of_minutes_within_a_day() {
        for secs in [0, 1_780_000_000, 1_800_000_000, -86_400 * 365] {
            let offset = utc_offset(secs).expect("the system knows its zone");
            assert!(offset.abs() < 86_400 && offset % 60 == 0, "{secs}: {offset}");
        }
    }
}
