//! The settings.json merge, through `install` and `uninstall` as the commands run them
//! (manifest, backup, slash commands) on a sandboxed Claude folder whose settings.json is
//! the input (or none, for an empty input of one kind in two). A dry run changes nothing. An
//! install that fails leaves the file byte for byte; one that succeeds leaves a JSON object
//! holding baton's statusLine (unless another tool's is kept) and a hook for every event,
//! and a second install changes nothing. `uninstall` then gives back the input byte for byte
//! (no file when there was none), when the input held no baton entry of its own.

#![no_main]

use std::path::PathBuf;

use baton::install::settings::{EVENTS, StatuslinePolicy};
use baton::install::{InstallRequest, Scope, install, uninstall};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let sandbox = baton_fuzz::sandbox();
    sandbox.reset();
    let path = sandbox.claude_dir().join("settings.json");
    let choice = baton_fuzz::fnv(data);
    let file = (!data.is_empty() || choice.is_multiple_of(2)).then_some(data);
    if let Some(bytes) = file {
        sandbox.write(&path, bytes);
    }
    let read = || std::fs::read(&path).ok();
    let statusline = [
        StatuslinePolicy::Refuse,
        StatuslinePolicy::Replace,
        StatuslinePolicy::Skip,
    ][(choice / 2 % 3) as usize];
    let binary = ["/opt/baton/bin/baton", "/home/u/My Tools/baton"][(choice / 6 % 2) as usize];
    let request = |dry_run| InstallRequest {
        scope: Scope::User,
        binary: PathBuf::from(binary),
        dry_run,
        statusline,
        // The wiring is under test, not the copy of the binary (`install --copy`).
        copy_from: None,
        force: false,
    };

    let _ = install(&request(true));
    assert_eq!(read().as_deref(), file, "a dry run changed settings.json");
    assert!(
        !sandbox.claude_dir().join("baton-install.json").exists(),
        "a dry run wrote the manifest"
    );

    if install(&request(false)).is_err() {
        assert_eq!(read().as_deref(), file, "a failed install changed settings.json");
        return;
    }
    let installed = read().expect("install leaves settings.json");
    // A BOM the file had is kept (install writes the file in its own form).
    let json = installed.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&installed);
    let value: Value = serde_json::from_slice(json).expect("install writes JSON");
    for (event, _) in EVENTS {
        let groups = value["hooks"][event].as_array().expect("a hook list for every event");
        assert!(
            groups.iter().any(|g| g.to_string().contains("baton")),
            "no baton hook for {event}"
        );
    }
    if statusline != StatuslinePolicy::Skip {
        let command = value["statusLine"]["command"].as_str().unwrap_or_default();
        assert!(
            command.contains("baton"),
            "no baton statusLine after install: {command:?}"
        );
    }
    install(&request(false)).expect("a second install");
    assert_eq!(
        read().expect("settings.json"),
        installed,
        "a second install changed settings.json"
    );

    uninstall(&Scope::User, false).expect("uninstall after install");
    let ours = file.is_some_and(|bytes| bytes.windows(5).any(|w| w == b"baton"));
    if !ours {
        assert_eq!(read().as_deref(), file, "uninstall did not give the input back");
    }
});
