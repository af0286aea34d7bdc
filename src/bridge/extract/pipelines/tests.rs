//! The pipeline reader on files written the way each CI system's users write them.

use super::*;

fn run(path: &str, text: &str) -> Facts {
    extract(&[Source { path, text }])
}

fn env(facts: &Facts) -> Vec<&str> {
    facts.env_vars.iter().map(|e| e.name.as_str()).collect()
}

fn images(facts: &Facts) -> Vec<&str> {
    facts.images.iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn github_actions_jobs_env_and_build_push_tags() {
    let yaml = r#"
name: Release
on:
  push:
    branches: [main]
env:
  REGISTRY: ghcr.io
  IMAGE_NAME: ${{ github.repository }}
jobs:
  test:
    runs-on: ubuntu-latest
    env:
      DATABASE_URL: postgres://postgres@localhost/test
    steps:
      - uses: actions/checkout@v4
      - run: npm ci && npm test
        env:
          NODE_ENV: test
  publish:
    needs: test
    runs-on: ubuntu-latest
    steps:
      - id: meta
        uses: docker/metadata-action@v5
        with:
          images: |
            ghcr.io/acme/api
      - uses: docker/build-push-action@v6
        with:
          push: ${{ github.event_name != 'pull_request' }}
          tags: ${{ steps.meta.outputs.tags }}
      - uses: docker/build-push-action@v6
        with:
          push: false
          tags: acme/api:local
      - run: |
          docker tag acme/worker ghcr.io/acme/worker:${{ github.sha }}
          docker push ghcr.io/acme/worker:${{ github.sha }}
"#;
    let facts = run(".github/workflows/release.yml", yaml);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let p = &facts.pipelines[0];
    assert_eq!(
        (p.kind.as_str(), p.name.as_deref()),
        ("github-actions", Some("Release"))
    );
    assert_eq!(p.jobs, ["test", "publish"]);
    assert_eq!(env(&facts), ["REGISTRY", "IMAGE_NAME", "DATABASE_URL", "NODE_ENV"]);
    assert_eq!(
        images(&facts),
        ["ghcr.io/acme/api", "ghcr.io/acme/worker:${{ github.sha }}"]
    );
}

#[test]
fn gitlab_jobs_skip_keywords_and_hidden_templates_and_follow_anchors() {
    let yaml = r#"
workflow:
  name: "Pipeline for $CI_COMMIT_REF_NAME"
stages: [build, deploy]
variables:
  DOCKER_DRIVER: overlay2
  APP_ENV:
    value: staging
    description: where to deploy
.docker: &docker
  image: docker:27
  services: [docker:27-dind]
  before_script:
    - docker login -u "$CI_REGISTRY_USER" -p "$CI_REGISTRY_PASSWORD" $CI_REGISTRY
build-image:
  <<: *docker
  stage: build
  variables:
    IMAGE_TAG: $CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA
  script:
    - docker build -t "$IMAGE_TAG" .
    - docker push "$IMAGE_TAG"
    - !reference [.docker, before_script]
deploy:
  stage: deploy
  script: ./deploy.sh
"#;
    let facts = run(".gitlab-ci.yml", yaml);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let p = &facts.pipelines[0];
    assert_eq!(p.name.as_deref(), Some("Pipeline for $CI_COMMIT_REF_NAME"));
    assert_eq!(p.jobs, ["build-image", "deploy"]);
    assert_eq!(env(&facts), ["DOCKER_DRIVER", "APP_ENV", "IMAGE_TAG"]);
    assert_eq!(
        images(&facts),
        ["$CI_REGISTRY_IMAGE:$CI_COMMIT_SHORT_SHA"],
        "resolved from the job's variables"
    );
    assert_eq!(p.stages, ["build", "deploy"]);
}

#[test]
fn azure_stages_jobs_variable_lists_and_docker_task() {
    let yaml = r#"
name: $(Date:yyyyMMdd)$(Rev:r)
trigger: [main]
variables:
  - name: buildConfiguration
    value: Release
  - name: team
    value: acme
  - group: shared-secrets
stages:
  - stage: Build
    variables:
      dockerRegistryServiceConnection: acr-conn
    jobs:
      - job: compile
        steps:
          - script: dotnet build --configuration $(buildConfiguration)
            env:
              DOTNET_CLI_TELEMETRY_OPTOUT: 1
          - task: Docker@2
            inputs:
              command: buildAndPush
              repository: $(team)/orders-api
              containerRegistry: $(dockerRegistryServiceConnection)
              tags: |
                $(Build.BuildId)
                latest
  - stage: Deploy
    jobs:
      - deployment: release
        environment: prod
        strategy:
          runOnce:
            deploy:
              steps:
                - bash: docker push acme.azurecr.io/orders-worker:$(Build.BuildId)
"#;
    let facts = run("azure-pipelines.yml", yaml);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let p = &facts.pipelines[0];
    assert_eq!(p.jobs, ["compile", "release"]);
    assert_eq!(
        env(&facts),
        [
            "buildConfiguration",
            "team",
            "dockerRegistryServiceConnection",
            "DOTNET_CLI_TELEMETRY_OPTOUT"
        ]
    );
    assert_eq!(
        images(&facts),
        [
            "acme/orders-api:$(Build.BuildId)",
            "acme/orders-api:latest",
            "acme.azurecr.io/orders-worker:$(Build.BuildId)"
        ]
    );
}

#[test]
fn broken_yaml_is_recorded_and_other_yaml_is_ignored() {
    let facts = run(".github/workflows/ci.yml", "jobs:\n  test:\n    steps: [\n");
    assert!(facts.pipelines.is_empty());
    assert!(
        facts.unparsed[0].starts_with(".github/workflows/ci.yml: not YAML"),
        "{:?}",
        facts.unparsed
    );
    assert_eq!(run("config/app.yml", "jobs: {a: {}}"), Facts::default());
    assert_eq!(
        system_of("services/api/.gitlab/ci/deploy.yml").map(|(kind, _)| kind),
        Some("gitlab-ci")
    );
}

#[test]
fn github_named_steps_scans_and_a_push_through_env_vars() {
    let yaml = r#"
name: Security
on: [push]
env:
  REGISTRY: ghcr.io
  IMAGE: ${{ env.REGISTRY }}/acme/orders-api
jobs:
  scan:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Snyk scan
        uses: snyk/actions/node@master
        env:
          SNYK_TOKEN: ${{ secrets.SNYK_TOKEN }}
      - uses: github/codeql-action/init@v3
        with:
          languages: javascript
      - name: Audit dependencies
        run: npm audit --audit-level=high
  image:
    runs-on: ubuntu-latest
    env:
      TAG: ${{ github.sha }}
    steps:
      - name: Build and push
        run: |
          docker build -t $IMAGE:$TAG .
          docker push $IMAGE:$TAG
      - name: Trivy
        uses: aquasecurity/trivy-action@0.24.0
        with:
          image-ref: ${{ env.IMAGE }}:${{ env.TAG }}
      - uses: docker/build-push-action@v6
        with:
          push: true
          tags: ${{ env.IMAGE }}:latest
"#;
    let facts = run(".github/workflows/security.yml", yaml);
    assert!(facts.unparsed.is_empty(), "{:?}", facts.unparsed);
    let p = &facts.pipelines[0];
    assert_eq!(p.steps, ["Snyk scan", "Audit dependencies", "Build and push", "Trivy"]);
    let scans: Vec<(&str, Option<&str>, Option<&str>)> = p
        .scans
        .iter()
        .map(|s| (s.tool.as_str(), s.job.as_deref(), s.step.as_deref()))
        .collect();
    assert_eq!(
        scans,
        [
            ("snyk", Some("scan"), Some("Snyk scan")),
            ("codeql", Some("scan"), Some("github/codeql-action/init@v3")),
            ("npm-audit", Some("scan"), None),
            ("trivy", Some("image"), Some("Trivy")),
        ]
    );
    assert_eq!(
        images(&facts),
        [
            "ghcr.io/acme/orders-api:${{ github.sha }}",
            "ghcr.io/acme/orders-api:latest"
        ]
    );
}

#[test]
fn gitlab_security_templates_stages_from_jobs_and_scanner_jobs() {
    let yaml = r#"
include:
  - template: Security/SAST.gitlab-ci.yml
  - template: Jobs/Secret-Detection.gitlab-ci.yml
  - local: .gitlab/ci/deploy.yml
container_scanning:
  stage: test
  image: aquasec/trivy:latest
  script:
    - trivy image --exit-code 1 --severity HIGH,CRITICAL "$CI_REGISTRY_IMAGE:$CI_COMMIT_SHA"
publish:
  stage: deploy
  script: [echo done]
"#;
    let facts = run(".gitlab-ci.yml", yaml);
    let p = &facts.pipelines[0];
    assert_eq!(
        p.stages,
        ["test", "deploy"],
        "no stages list: the jobs' stages in order"
    );
    let tools: Vec<(&str, Option<&str>)> = p.scans.iter().map(|s| (s.tool.as_str(), s.job.as_deref())).collect();
    assert_eq!(
        tools,
        [
            ("gitlab-sast", None),
            ("gitlab-secret-detection", None),
            ("trivy", Some("container_scanning"))
        ]
    );
}

#[test]
fn azure_stage_names_display_names_and_scan_tasks() {
    let yaml = r#"
variables:
  imageRepository: acme/orders
stages:
  - stage: Build
    jobs:
      - job: build
        steps:
          - task: SnykSecurityScan@1
            displayName: Snyk open source scan
            inputs:
              testType: app
          - script: docker push registry.acme.io/$(imageRepository):$(Build.BuildId)
            displayName: Push image
  - stage: Release
    jobs:
      - job: release
        steps:
          - script: ./release.sh
"#;
    let facts = run("azure-pipelines.yml", yaml);
    let p = &facts.pipelines[0];
    assert_eq!(p.stages, ["Build", "Release"]);
    assert_eq!(p.steps, ["Snyk open source scan", "Push image"]);
    assert_eq!(p.scans[0].tool, "snyk");
    assert_eq!(images(&facts), ["registry.acme.io/acme/orders:$(Build.BuildId)"]);
}
