//! Security scans a pipeline runs, by the action a GitHub step uses, the task an Azure step
//! runs, the template or component a GitLab file includes, or the scanner a script calls
//! (`snyk test`, `trivy image`, `npm audit`, …).

/// Actions (GitHub `uses:` prefixes, compared without case) and the tool each runs.
const ACTIONS: &[(&str, &str)] = &[
    ("snyk/actions", "snyk"),
    ("aquasecurity/trivy-action", "trivy"),
    ("aquasecurity/tfsec-action", "tfsec"),
    ("github/codeql-action", "codeql"),
    ("anchore/scan-action", "grype"),
    ("returntocorp/semgrep-action", "semgrep"),
    ("semgrep/semgrep-action", "semgrep"),
    ("gitleaks/gitleaks-action", "gitleaks"),
    ("trufflesecurity/trufflehog", "trufflehog"),
    ("zaproxy/action-", "zap"),
    ("ossf/scorecard-action", "scorecard"),
    ("actions/dependency-review-action", "dependency-review"),
    ("sonarsource/sonarqube-scan-action", "sonarqube"),
    ("sonarsource/sonarcloud-github-action", "sonarcloud"),
    ("docker/scout-action", "docker-scout"),
    ("bridgecrewio/checkov-action", "checkov"),
    ("google/osv-scanner-action", "osv-scanner"),
    ("pycqa/bandit-action", "bandit"),
    ("checkmarx/", "checkmarx"),
    ("zizmorcore/zizmor-action", "zizmor"),
    ("mend-toolkit/", "mend"),
];

/// Azure tasks (the name before `@`, compared without case) and the tool each runs.
const TASKS: &[(&str, &str)] = &[
    ("SnykSecurityScan", "snyk"),
    ("AdvancedSecurity-Codeql-Init", "codeql"),
    ("AdvancedSecurity-Codeql-Analyze", "codeql"),
    ("AdvancedSecurity-Dependency-Scanning", "dependency-scanning"),
    ("MicrosoftSecurityDevOps", "microsoft-security-devops"),
    ("CredScan", "credscan"),
    ("WhiteSource", "mend"),
    ("Mend", "mend"),
    ("SonarQubeAnalyze", "sonarqube"),
    ("SonarCloudAnalyze", "sonarcloud"),
    ("trivy", "trivy"),
    ("dependency-check-build-task", "dependency-check"),
];

/// GitLab's security templates and components (a path part, compared without case).
const GITLAB: &[(&str, &str)] = &[
    ("SAST-IaC", "gitlab-iac-sast"),
    ("SAST", "gitlab-sast"),
    ("Dependency-Scanning", "gitlab-dependency-scanning"),
    ("Container-Scanning", "gitlab-container-scanning"),
    ("Secret-Detection", "gitlab-secret-detection"),
    ("DAST", "gitlab-dast"),
    ("License-Scanning", "gitlab-license-scanning"),
    ("Coverage-Fuzzing", "gitlab-coverage-fuzzing"),
    ("API-Security", "gitlab-api-security"),
];

/// Scanner commands: the words a command starts with (after `npx`, `sudo`, a path), and
/// the tool. A one-word entry matches the program alone.
const COMMANDS: &[(&[&str], &str)] = &[
    (&["snyk"], "snyk"),
    (&["trivy"], "trivy"),
    (&["grype"], "grype"),
    (&["semgrep"], "semgrep"),
    (&["codeql"], "codeql"),
    (&["gitleaks"], "gitleaks"),
    (&["trufflehog"], "trufflehog"),
    (&["bandit"], "bandit"),
    (&["pip-audit"], "pip-audit"),
    (&["safety", "check"], "safety"),
    (&["safety", "scan"], "safety"),
    (&["npm", "audit"], "npm-audit"),
    (&["yarn", "audit"], "yarn-audit"),
    (&["yarn", "npm", "audit"], "yarn-audit"),
    (&["pnpm", "audit"], "pnpm-audit"),
    (&["cargo", "audit"], "cargo-audit"),
    (&["cargo", "deny"], "cargo-deny"),
    (&["osv-scanner"], "osv-scanner"),
    (&["checkov"], "checkov"),
    (&["tfsec"], "tfsec"),
    (&["zap-baseline.py"], "zap"),
    (&["zap-full-scan.py"], "zap"),
    (&["sonar-scanner"], "sonarqube"),
    (&["govulncheck"], "govulncheck"),
    (&["brakeman"], "brakeman"),
    (&["dependency-check.sh"], "dependency-check"),
    (&["docker", "scout"], "docker-scout"),
    (&["zizmor"], "zizmor"),
];

/// The tool a GitHub action runs.
pub fn action(uses: &str) -> Option<&'static str> {
    let lower = uses.to_ascii_lowercase();
    ACTIONS
        .iter()
        .find(|(prefix, _)| lower.starts_with(prefix))
        .map(|(_, tool)| *tool)
}

/// The tool an Azure task (`SnykSecurityScan@1`, `publisher.extension.trivy@1`) runs.
pub fn task(task: &str) -> Option<&'static str> {
    let name = task.split('@').next().unwrap_or(task);
    let name = name.rsplit('.').next().unwrap_or(name);
    TASKS
        .iter()
        .find(|(have, _)| have.eq_ignore_ascii_case(name))
        .map(|(_, tool)| *tool)
}

/// The tool a GitLab include (`template: Security/SAST.gitlab-ci.yml`, `component:
/// …/components/secret-detection/secret-detection@1`) runs.
pub fn gitlab_include(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    let security = lower.starts_with("security/") || lower.starts_with("jobs/") || lower.contains("/components/");
    if !security {
        return None;
    }
    let parts: Vec<&str> = lower.split(['/', '@', '.']).collect();
    GITLAB
        .iter()
        .find(|(name, _)| {
            parts
                .iter()
                .any(|p| p.eq_ignore_ascii_case(name) || p.replace('_', "-") == name.to_ascii_lowercase())
        })
        .map(|(_, tool)| *tool)
}

/// The scanners a script's commands (each as its words) call, in order, once each.
pub fn in_script(commands: &[Vec<String>]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for words in commands {
        let start = words
            .iter()
            .position(|w| !matches!(w.as_str(), "npx" | "sudo" | "exec" | "time" | "env") && !w.contains('='))
            .unwrap_or(words.len());
        let words: Vec<&str> = words[start..]
            .iter()
            .map(|w| w.rsplit('/').next().unwrap_or(w))
            .collect();
        let found = COMMANDS.iter().find(|(prefix, _)| {
            prefix.len() <= words.len() && prefix.iter().zip(&words).all(|(p, w)| p.eq_ignore_ascii_case(w))
        });
        if let Some((_, tool)) = found
            && !out.contains(tool)
        {
            out.push(tool);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::extract::push::commands;

    #[test]
    fn actions_tasks_templates_and_commands() {
        assert_eq!(action("snyk/actions/node@master"), Some("snyk"));
        assert_eq!(action("github/codeql-action/analyze@v3"), Some("codeql"));
        assert_eq!(action("actions/checkout@v4"), None);
        assert_eq!(task("SnykSecurityScan@1"), Some("snyk"));
        assert_eq!(task("AquaSecurityOfficial.trivy-official.trivy.trivy@1"), Some("trivy"));
        assert_eq!(task("Docker@2"), None);
        assert_eq!(gitlab_include("Security/SAST.gitlab-ci.yml"), Some("gitlab-sast"));
        assert_eq!(
            gitlab_include("Jobs/Secret-Detection.gitlab-ci.yml"),
            Some("gitlab-secret-detection")
        );
        assert_eq!(
            gitlab_include("$CI_SERVER_FQDN/components/dependency-scanning/main@1"),
            Some("gitlab-dependency-scanning")
        );
        assert_eq!(gitlab_include("Auto-DevOps.gitlab-ci.yml"), None);
        let script = "npm ci\nnpx snyk test --severity-threshold=high\n\
                      trivy image --exit-code 1 \"$IMAGE\" && echo ok\n/usr/local/bin/grype dir:.\n\
                      npm audit --audit-level=high\necho trivy is great\n";
        assert_eq!(in_script(&commands(script)), ["snyk", "trivy", "grype", "npm-audit"]);
    }
}
