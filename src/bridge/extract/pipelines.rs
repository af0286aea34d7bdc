//! CI pipelines read with serde_norway (YAML, anchors and `<<` merges applied): GitHub
//! Actions (`.github/workflows/*.yml`), GitLab CI (`.gitlab-ci.yml` and its `.gitlab/ci/`
//! includes) and Azure Pipelines (`azure-pipelines.yml`, `.azure-pipelines/`). For each: its
//! name, its jobs and stages, its named steps, the security scans it runs (see [`scans`]),
//! the variables its env blocks set, and the images it pushes (docker/build-push-action
//! tags, Azure's Docker@2 task, `docker push` in scripts), with the variables the file
//! gives a value resolved (`$IMAGE:${{ github.sha }}` with `IMAGE` in `env:`).

use serde_norway::Value;

use super::push::{commands, pushed_images};
use super::{Source, per_file, yaml};
use crate::bridge::facts::{EnvVar, Facts, Image, Pipeline, Scan, push_once};

mod scans;
mod variables;

use variables::{Values, resolve, scalar, variables};

/// GitLab's top-level keys that are not jobs.
const GITLAB_KEYWORDS: &[&str] = &[
    "stages",
    "variables",
    "default",
    "include",
    "workflow",
    "image",
    "services",
    "before_script",
    "after_script",
    "cache",
    "spec",
];

/// Extracts pipelines, their variables and pushed images from the CI files among `sources`.
pub fn extract(sources: &[Source<'_>]) -> Facts {
    per_file(sources, |source| match system_of(source.path) {
        Some((kind, read)) => pipeline(source, kind, read),
        None => Facts::default(),
    })
}

/// Reads one CI system's document into what it found, and returns the pipeline's name.
type Reader = fn(&Value, &mut Found) -> Option<String>;

/// Which CI system a path belongs to, if any, with its reader.
fn system_of(path: &str) -> Option<(&'static str, Reader)> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
    let under = |dir: &str| path.starts_with(dir) || path.contains(&format!("/{dir}"));
    if !yaml {
        return None;
    }
    if under(".github/workflows/") {
        Some(("github-actions", github))
    } else if name.ends_with(".gitlab-ci.yml") || name == ".gitlab-ci.yaml" || under(".gitlab/ci/") {
        Some(("gitlab-ci", gitlab))
    } else if name.starts_with("azure-pipelines")
        || name.ends_with(".azure-pipelines.yml")
        || under(".azure-pipelines/")
        || under(".azuredevops/")
    {
        Some(("azure-pipelines", azure))
    } else {
        None
    }
}

fn pipeline(source: &Source<'_>, kind: &str, read: Reader) -> Facts {
    let mut doc = match yaml(source) {
        Ok(doc) => doc,
        Err(unparsed) => return *unparsed,
    };
    let _ = doc.apply_merge();
    let mut found = Found {
        pipeline: Pipeline {
            kind: kind.into(),
            file: source.path.to_owned(),
            ..Pipeline::default()
        },
        facts: Facts::default(),
    };
    let name = read(&doc, &mut found);
    found.facts.pipelines.push(Pipeline { name, ..found.pipeline });
    found.facts
}

/// What one pipeline file holds: its jobs, stages, named steps and scans in `pipeline`, the
/// variables it sets and the images it pushes in `facts`, each once, in document order.
struct Found {
    pipeline: Pipeline,
    facts: Facts,
}

impl Found {
    fn env(&mut self, name: String) {
        let file = self.pipeline.file.clone();
        let source = "pipeline".into();
        push_once(&mut self.facts.env_vars, EnvVar { name, source, file });
    }

    /// Records the names an env or variables block sets, and returns their literal values.
    fn variables(&mut self, block: Option<&Value>) -> Values {
        let mut literal = Values::new();
        for (name, value) in variables(block) {
            if let Some(value) = value {
                literal.push((name.clone(), value));
            }
            self.env(name);
        }
        literal
    }

    fn image(&mut self, name: String) {
        let file = self.pipeline.file.clone();
        push_once(&mut self.facts.images, Image { name, file });
    }

    /// The images a script pushes (variables resolved with `scopes`, innermost first) and
    /// the scanners it calls.
    fn script(&mut self, script: Option<&Value>, scopes: &[&Values], job: Option<&str>) {
        let text = text_of(script);
        if text.is_empty() {
            return;
        }
        for image in pushed_images(&text) {
            self.image(resolve(&image, scopes));
        }
        for tool in scans::in_script(&commands(&text)) {
            self.scan(tool, job, None);
        }
    }

    fn scan(&mut self, tool: &str, job: Option<&str>, step: Option<&str>) {
        let scan = Scan {
            tool: tool.to_owned(),
            job: job.map(str::to_owned),
            step: step.map(str::to_owned),
        };
        push_once(&mut self.pipeline.scans, scan);
    }

    /// `repository` pushed with each of `tags` (variables resolved), or alone without tags.
    fn tagged(&mut self, repository: &str, tags: &[String], scopes: &[&Values]) {
        if tags.is_empty() {
            self.image(repository.to_owned());
        }
        for tag in tags {
            self.image(format!("{repository}:{}", resolve(tag, scopes)));
        }
    }

    fn step_name(&mut self, name: Option<&str>) {
        if let Some(name) = name.filter(|n| !n.trim().is_empty()) {
            push_once(&mut self.pipeline.steps, name.to_owned());
        }
    }
}

fn github(doc: &Value, found: &mut Found) -> Option<String> {
    let workflow = found.variables(doc.get("env"));
    for (id, job) in entries(doc.get("jobs")) {
        found.pipeline.jobs.push(id.clone());
        let job_env = found.variables(job.get("env"));
        for (_, service) in entries(job.get("services")) {
            found.variables(service.get("env"));
        }
        let steps = sequence(job.get("steps"));
        let metadata_images: Vec<String> = steps
            .iter()
            .filter(|s| uses(s, "docker/metadata-action"))
            .flat_map(|s| list_of(at(Some(s), &["with", "images"])))
            .map(|image| resolve(&image, &[&job_env, &workflow]))
            .collect();
        for step in steps {
            let step_env = found.variables(step.get("env"));
            let scopes = [&step_env, &job_env, &workflow];
            let name = step.get("name").and_then(Value::as_str);
            let used = step.get("uses").and_then(Value::as_str);
            found.step_name(name);
            if let Some(tool) = used.and_then(scans::action) {
                found.scan(tool, Some(&id), name.or(used));
            }
            found.script(step.get("run"), &scopes, Some(&id));
            let with = step.get("with");
            let push = with.and_then(|w| w.get("push"));
            let pushes =
                !matches!(push, None | Some(Value::Bool(false))) && push.and_then(Value::as_str) != Some("false");
            if uses(step, "mr-smithers-excellent/docker-build-push") {
                docker_build_push(with, &scopes, found);
            }
            if uses(step, "docker/build-push-action") && pushes {
                let tags: Vec<String> = list_of(at(with, &["tags"]))
                    .iter()
                    .map(|t| resolve(t, &scopes))
                    .collect();
                let computed = tags.iter().any(|t| t.contains("${{") && t.contains("steps."));
                for image in if computed { metadata_images.clone() } else { tags } {
                    found.image(image);
                }
            }
        }
    }
    doc.get("name").and_then(Value::as_str).map(str::to_owned)
}

/// `mr-smithers-excellent/docker-build-push`: pushes `image` (after `registry`) with each of
/// its `tags`, unless `pushImage: false`.
fn docker_build_push(with: Option<&Value>, scopes: &[&Values], found: &mut Found) {
    let input = |key: &str| with.and_then(|w| w.get(key)).and_then(scalar);
    let Some(image) = input("image").map(|i| resolve(&i, scopes)) else {
        return;
    };
    if input("pushImage").as_deref() == Some("false") {
        return;
    }
    let has_registry = image.split_once('/').is_some_and(|(host, _)| host.contains(['.', ':']));
    let repository = match input("registry") {
        Some(registry) if !has_registry => format!("{}/{image}", resolve(&registry, scopes)),
        _ => image,
    };
    found.tagged(&repository, &list_of(at(with, &["tags"])), scopes);
}

fn gitlab(doc: &Value, found: &mut Found) -> Option<String> {
    let globals = found.variables(doc.get("variables"));
    found.pipeline.stages = list_of(doc.get("stages"));
    for include in gitlab_includes(doc.get("include")) {
        if let Some(tool) = scans::gitlab_include(&include) {
            found.scan(tool, None, Some(&include));
        }
    }
    for part in ["before_script", "after_script"] {
        let script = doc.get("default").and_then(|d| d.get(part)).or_else(|| doc.get(part));
        found.script(script, &[&globals], None);
    }
    let listed_stages = !found.pipeline.stages.is_empty();
    for (id, job) in entries(Some(doc)) {
        if GITLAB_KEYWORDS.contains(&id.as_str()) || !job.is_mapping() {
            continue;
        }
        let visible = !id.starts_with('.');
        if visible {
            found.pipeline.jobs.push(id.clone());
            if let Some(stage) = job.get("stage").and_then(Value::as_str).filter(|_| !listed_stages) {
                push_once(&mut found.pipeline.stages, stage.to_owned());
            }
        }
        let job_vars = found.variables(job.get("variables"));
        let job_name = visible.then_some(id.as_str());
        for part in ["before_script", "script", "after_script"] {
            found.script(job.get(part), &[&job_vars, &globals], job_name);
        }
    }
    text_at(Some(doc), &["workflow", "name"]).map(str::to_owned)
}

/// The templates and components a GitLab file includes (`include: [{template: …}]`).
fn gitlab_includes(include: Option<&Value>) -> Vec<String> {
    let items = match include.map(untagged) {
        Some(Value::Sequence(_)) => sequence(include),
        other => other.into_iter().collect(),
    };
    items
        .into_iter()
        .filter_map(|item| ["template", "component"].iter().find_map(|k| item.get(*k)?.as_str()))
        .map(str::to_owned)
        .collect()
}

fn azure(doc: &Value, found: &mut Found) -> Option<String> {
    let mut known = found.variables(doc.get("variables"));
    let stages = sequence(doc.get("stages"));
    let jobs: Vec<&Value> = if stages.is_empty() {
        sequence(doc.get("jobs"))
    } else {
        stages
            .iter()
            .inspect(|stage| {
                if let Some(name) = stage.get("stage").and_then(Value::as_str) {
                    push_once(&mut found.pipeline.stages, name.to_owned());
                }
                known.extend(found.variables(stage.get("variables")));
            })
            .flat_map(|stage| sequence(stage.get("jobs")))
            .collect()
    };
    let mut steps: Vec<(Option<String>, &Value)> = sequence(doc.get("steps")).into_iter().map(|s| (None, s)).collect();
    for job in jobs {
        let id = ["job", "deployment"]
            .iter()
            .find_map(|k| job.get(*k).and_then(Value::as_str))
            .map(str::to_owned);
        if let Some(id) = &id {
            found.pipeline.jobs.push(id.clone());
        }
        known.extend(found.variables(job.get("variables")));
        let deploy_steps = at(Some(job), &["strategy", "runOnce", "deploy", "steps"]);
        let job_steps = sequence(job.get("steps")).into_iter().chain(sequence(deploy_steps));
        steps.extend(job_steps.map(|s| (id.clone(), s)));
    }
    for (job, step) in steps {
        let job = job.as_deref();
        found.variables(step.get("env"));
        let name = step.get("displayName").and_then(Value::as_str);
        found.step_name(name);
        for key in ["script", "bash", "pwsh", "powershell"] {
            found.script(step.get(key), &[&known], job);
        }
        let task = step.get("task").and_then(Value::as_str).unwrap_or("");
        if let Some(tool) = scans::task(task) {
            found.scan(tool, job, Some(name.unwrap_or(task)));
        }
        let inputs = step.get("inputs");
        let command = text_at(inputs, &["command"]).unwrap_or("");
        if task.starts_with("Docker@")
            && matches!(command, "push" | "buildAndPush")
            && let Some(repository) = text_at(inputs, &["repository"]).map(|r| resolve(r, &[&known]))
        {
            found.tagged(&repository, &list_of(at(inputs, &["tags"])), &[&known]);
        }
    }
    doc.get("name").and_then(Value::as_str).map(str::to_owned)
}

fn uses(step: &Value, action: &str) -> bool {
    step.get("uses")
        .and_then(Value::as_str)
        .is_some_and(|u| u.starts_with(action))
}

/// The value at `path` (keys, one level each) below `value`.
fn at<'v>(value: Option<&'v Value>, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(value?, |v, key| v.get(*key))
}

/// The string at `path` below `value`.
fn text_at<'v>(value: Option<&'v Value>, path: &[&str]) -> Option<&'v str> {
    at(value, path)?.as_str()
}

/// Key/value pairs of a mapping (string keys only), in order.
fn entries(value: Option<&Value>) -> Vec<(String, &Value)> {
    let Some(Value::Mapping(map)) = value.map(untagged) else {
        return Vec::new();
    };
    map.iter()
        .filter_map(|(k, v)| Some((k.as_str()?.to_owned(), untagged(v))))
        .collect()
}

fn sequence(value: Option<&Value>) -> Vec<&Value> {
    match value.map(untagged) {
        Some(Value::Sequence(items)) => items.iter().map(untagged).collect(),
        _ => Vec::new(),
    }
}

/// A list written as a YAML sequence, or as a string with one item per line or comma.
fn list_of(value: Option<&Value>) -> Vec<String> {
    let items: Vec<String> = match value.map(untagged) {
        Some(Value::String(s)) => s.split([',', '\n']).map(str::to_owned).collect(),
        Some(Value::Sequence(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect(),
        _ => Vec::new(),
    };
    items
        .into_iter()
        .map(|i| i.trim().to_owned())
        .filter(|i| !i.is_empty())
        .collect()
}

/// A script: a string, or a list of strings (nested lists flattened), as lines.
fn text_of(value: Option<&Value>) -> String {
    match value.map(untagged) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Sequence(items)) => items.iter().map(|i| text_of(Some(i))).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}

/// The value under a YAML tag (`!reference [...]`), or the value itself.
fn untagged(value: &Value) -> &Value {
    match value {
        Value::Tagged(tagged) => &tagged.value,
        other => other,
    }
}

#[cfg(test)]
mod tests;
