//! Image push targets in shell scripts of pipelines: `docker push IMAGE`, `podman push`,
//! `docker buildx build --push -t IMAGE`, and kaniko's `--destination IMAGE`. Lines
//! continued with `\` are joined; words are split the way a shell splits plain words and
//! quotes (no expansion: `$REGISTRY/app:$TAG` stays as written).

use super::continuation::joined_lines;

/// The images pushed by `script`, in order, once each.
pub fn pushed_images(script: &str) -> Vec<String> {
    let mut images: Vec<String> = Vec::new();
    for words in commands(script) {
        for image in in_command(&words) {
            crate::bridge::facts::push_once(&mut images, image);
        }
    }
    images
}

/// The commands of a script, each as its words: lines continued with `\` joined, comment
/// lines dropped, split at `&&`, `||`, `|` and `;`.
pub fn commands(script: &str) -> Vec<Vec<String>> {
    logical_lines(script)
        .iter()
        .flat_map(|line| line.split(['&', '|', ';']).map(words).collect::<Vec<_>>())
        .filter(|words| !words.is_empty())
        .collect()
}

fn in_command(words: &[String]) -> Vec<String> {
    let Some(tool) = words
        .iter()
        .position(|w| matches!(w.as_str(), "docker" | "podman" | "buildah" | "nerdctl"))
    else {
        return kaniko(words);
    };
    let rest = &words[tool + 1..];
    let first = rest.iter().position(|w| !w.starts_with('-'));
    match first.map(|i| (rest[i].as_str(), i)) {
        Some(("push", i)) => rest[i + 1..]
            .iter()
            .find(|w| !w.starts_with('-'))
            .cloned()
            .into_iter()
            .collect(),
        Some(("buildx", _)) | Some(("build", _))
            if rest.iter().any(|w| w == "--push" || w == "--output=type=registry") =>
        {
            flag_values(rest, &["-t", "--tag"])
        }
        _ => Vec::new(),
    }
}

/// The values given to the flags `names`: `-t X`, `--tag X`, `--tag=X`.
fn flag_values(words: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        if names.contains(&word.as_str()) {
            out.extend(words.next().cloned());
        } else if let Some((flag, value)) = word.split_once('=')
            && flag.starts_with("--")
            && names.contains(&flag)
        {
            out.push(value.to_owned());
        }
    }
    out
}

/// kaniko's executor: `--destination X` / `--destination=X` / `-d X`.
fn kaniko(words: &[String]) -> Vec<String> {
    if !words.iter().any(|w| w.contains("executor") || w.contains("kaniko")) {
        return Vec::new();
    }
    flag_values(words, &["--destination", "-d"])
}

/// Lines with `\`-continuations joined and `#` comment lines dropped.
fn logical_lines(script: &str) -> Vec<String> {
    // A `#` line is dropped only where no command is being continued.
    joined_lines(script, '\\', |line, continuing| !continuing && line.starts_with('#'))
}

/// Whitespace-separated words with single and double quotes removed; a GitHub expression
/// `${{ … }}` stays inside its word.
pub fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    let mut chars = command.char_indices();
    while let Some((i, c)) = chars.next() {
        if quote.is_none() && command[i..].starts_with("${{") {
            let end = command[i..].find("}}").map_or(command.len(), |e| i + e + 2);
            word.push_str(&command[i..end]);
            while chars.clone().next().is_some_and(|(j, _)| j < end) {
                chars.next();
            }
            continue;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => word.push(c),
        }
    }
    if started || !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_commands_buildx_and_kaniko() {
        let script = "docker login -u \"$USER\" -p \"$TOKEN\" $CI_REGISTRY\n\
                      docker build -t $CI_REGISTRY_IMAGE:$CI_COMMIT_SHA .\n\
                      docker push \"$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA\"\n\
                      # docker push ghcr.io/acme/commented:latest\n\
                      docker buildx build --platform linux/amd64,linux/arm64 \\\n  --push \\\n  -t ghcr.io/acme/api:1.2 --tag=ghcr.io/acme/api:latest .\n\
                      /kaniko/executor --context . --destination registry.acme.io/worker:$TAG\n\
                      echo done && podman push --tls-verify=false quay.io/acme/cli:dev";
        assert_eq!(
            pushed_images(script),
            [
                "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA",
                "ghcr.io/acme/api:1.2",
                "ghcr.io/acme/api:latest",
                "registry.acme.io/worker:$TAG",
                "quay.io/acme/cli:dev",
            ]
        );
    }

    #[test]
    fn builds_without_push_push_nothing() {
        assert!(pushed_images("docker build -t app:dev .\ndocker run app:dev").is_empty());
    }
}
