//! `baton ctx init`: starts the context store, empty or from a JSON document.

use serde_json::{Value, json};

use super::ctx_args::Init;
use crate::error::{Error, Result};
use crate::planning::Project;
use crate::store::write::Writer;
use crate::store::{Store, document};

/// Creates the store (version 1) and says where it is.
pub(super) fn init(a: &Init) -> Result<()> {
    let project = Project::current_or_here()?;
    let store = Store::of(&project);
    let mut doc = match &a.from {
        Some(file) => {
            let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
            let doc: Value = serde_json::from_str(&text)
                .map_err(|e| Error::invalid(file, format!("not a JSON document: {e}")).caused_by(e))?;
            if !doc.is_object() {
                return Err(Error::invalid(file, "the context document must be a JSON object"));
            }
            doc
        }
        None => {
            let name = project
                .root
                .file_name()
                .map_or("project".into(), |n| n.to_string_lossy().into_owned());
            let session = std::env::var("CLAUDE_CODE_SESSION_ID").ok();
            document::skeleton(&name, None, session.as_deref())
        }
    };
    if let Some(root) = doc.as_object_mut() {
        if let Some(name) = &a.project {
            root.insert("project_name".into(), json!(name));
        }
        if let Some(kind) = &a.workflow {
            root.insert("workflow_type".into(), json!(kind));
        }
    }
    let writer = Writer::identify(a.writer.as_name.as_deref(), &project.root)?;
    store.create(&writer, doc)?;
    if a.out.json {
        return super::print(&format!("{}\n", json!({"version": 1, "document": store.document})));
    }
    super::print(&format!(
        "Started the context store: {} (version 1). `baton ctx show` shows it.\n",
        store.document.display()
    ))
}
