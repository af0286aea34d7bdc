//! Files no bridge should choke on: binary, not UTF-8, a 50 MB generated dump, symlink
//! loops and links out of the project, a FIFO, git-ignored files. Each is skipped and
//! counted by its reason; the readable files around them still count.

use std::io::Write;

use super::{bridge_json, copy_dir, fixture_dir};
use crate::common::{Sandbox, git_repo, native, os};

/// A 50 MB generated SQL dump: a table, then INSERTs.
fn write_dump(sandbox: &Sandbox) {
    let path = sandbox.project.join("generated/dump.sql");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(file, "CREATE TABLE dumped (id int PRIMARY KEY, name text);").unwrap();
    let mut written = 0;
    let mut i = 0u64;
    while written < 50 * 1024 * 1024 {
        let line = format!("INSERT INTO dumped VALUES ({i}, 'row number {i} of the generated dump');\n");
        file.write_all(line.as_bytes()).unwrap();
        written += line.len();
        i += 1;
    }
    file.flush().unwrap();
}

#[test]
fn hostile_files_are_skipped_and_counted_and_the_rest_still_counts() {
    let sandbox = Sandbox::new();
    git_repo(
        &sandbox.project,
        &[("README.md", "# app\n"), (".gitignore", "build/\n*.log\n")],
    );
    copy_dir(&fixture_dir("db-sqlite").join("project"), &sandbox.project);
    std::fs::create_dir_all(sandbox.project.join("assets")).unwrap();
    std::fs::write(
        sandbox.project.join("assets/logo.png"),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10",
    )
    .unwrap();
    std::fs::write(
        sandbox.project.join("legacy.sql"),
        b"-- caf\xe9\nCREATE TABLE latin1_table (id int);\n",
    )
    .unwrap();
    write_dump(&sandbox);
    std::fs::create_dir_all(sandbox.project.join("loop")).unwrap();
    os::symlink("b", sandbox.project.join("loop/a"));
    os::symlink("a", sandbox.project.join("loop/b"));
    os::symlink("/etc/passwd", sandbox.project.join("passwd.sql"));
    sandbox.write("build/out.sql", "CREATE TABLE ignored_table (id int);");
    sandbox.write("debug.log", "CVE-2024-3094");
    #[cfg(unix)]
    os::mkfifo(&sandbox.project.join("pipe.sql"));

    let handoff = bridge_json(
        &sandbox,
        &["--files", ".", "pipe.sql", "build/out.sql", "/etc/hostname"],
    );

    let tables: Vec<&str> = handoff["structured"]["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(tables, ["notebooks", "notes", "note_tags"], "{handoff:#}");
    let files = &handoff["files"];
    assert_eq!(files["binary"], 1, "{files}");
    assert_eq!(files["invalidUtf8"], 1, "{files}");
    assert_eq!(files["tooLarge"], 1, "{files}");
    assert_eq!(files["symlinks"], 3, "loop/a, loop/b, passwd.sql: {files}");
    assert_eq!(files["notRegular"], 1, "the FIFO: {files}");
    assert_eq!(files["ignored"], 1, "build/out.sql: {files}");
    assert_eq!(files["outside"], 1, "/etc/hostname: {files}");
    let summary = handoff["summary"].as_str().unwrap();
    assert!(
        summary.contains("skipped: 3 symlinks, 1 not regular files, 1 too large, 1 binary, 1 not UTF-8, 1 git-ignored, 1 outside the work tree"),
        "{summary}"
    );
    let kinds: Vec<(&str, &str)> = handoff["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["path"].as_str().unwrap(), a["type"].as_str().unwrap()))
        .collect();
    assert!(kinds.contains(&("generated/dump.sql", "skipped")), "{kinds:?}");
    assert!(
        !kinds.iter().any(|(p, _)| p.starts_with("build/") || *p == "debug.log"),
        "{kinds:?}"
    );
}

#[test]
fn a_run_that_leaves_hostile_files_still_stops_cleanly_with_its_handoff() {
    let sandbox = Sandbox::new();
    git_repo(&sandbox.project, &[("README.md", "# app\n")]);
    let payload = |event: &str| {
        let mut p = crate::common::fixture(&format!("{}.json", event.to_ascii_lowercase()));
        p["cwd"] = serde_json::json!(native(&sandbox.project));
        p["agent_id"] = serde_json::json!("ab5000000000000a");
        p["agent_type"] = serde_json::json!("db-coding-agent");
        p
    };
    sandbox.hook(&payload("SubagentStart")).assert_hook_contract();
    sandbox.write("db/001_init.sql", "CREATE TABLE kept (id int PRIMARY KEY);");
    std::fs::write(sandbox.project.join("db/blob.sql"), b"CREATE\0TABLE").unwrap();
    os::symlink("loop", sandbox.project.join("db/loop"));
    write_dump(&sandbox);
    let out = sandbox.hook(&payload("SubagentStop"));
    out.assert_hook_contract();
    let run = sandbox.read_json(&sandbox.project.join(".baton/agents/ab5000000000000a.json"));
    let handoff = &run["handoff"];
    assert_eq!(handoff["structured"]["tables"][0]["name"], "kept", "{run:#}");
    assert_eq!(handoff["files"]["binary"], 1, "{handoff:#}");
    assert_eq!(handoff["files"]["symlinks"], 1, "{handoff:#}");
    assert_eq!(handoff["files"]["tooLarge"], 1, "{handoff:#}");
}

#[test]
fn a_vendored_minified_bundle_is_skipped_and_its_routes_are_not_the_agents() {
    let sandbox = Sandbox::new();
    sandbox.write(
        "src/app.js",
        "const express = require('express');\nconst app = express();\napp.get('/health', (req, res) => res.send('ok'));\n",
    );
    // swagger-ui's bundle, as vendored into a docs folder: one line of thousands of characters.
    let bundle = format!(
        "!function(e,t){{{}e.get(\"/shown\",function(){{}});app.post(\"/hidden\",f)}}(this);\n",
        "var a=function(n){return n+1};".repeat(200)
    );
    sandbox.write("doc/swagger/swagger-ui-bundle.js", &bundle);
    sandbox.write("static/jquery.min.js", "app.get('/min',f);\n");

    let handoff = bridge_json(&sandbox, &["--files", "."]);

    let endpoints: Vec<&str> = handoff["structured"]["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(endpoints, ["/health"], "{handoff:#}");
    assert_eq!(handoff["files"]["minified"], 2, "{}", handoff["files"]);
    let summary = handoff["summary"].as_str().unwrap();
    assert!(summary.contains("2 minified"), "{summary}");
}
