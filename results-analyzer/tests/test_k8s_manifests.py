"""docker/k8s/ validated offline against the schemas of one pinned Kubernetes version (kubernetes-validate
bundles them; its version is pinned in pyproject.toml's test extra). Strict schemas: a misspelt field is an
error, not ignored. A manifest whose kind has no schema fails too (the library only warns)."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from skip_policy import missing

try:
    import kubernetes_validate
    from kubernetes_validate.utils import SchemaNotFoundError, ValidationError
except ImportError:  # pragma: no cover - depends on the venv
    kubernetes_validate = None

K8S_VERSION = "1.30.0"
K8S_DIR = Path(__file__).resolve().parents[2] / "docker" / "k8s"
# Not Kubernetes resources: read by kustomize on the client.
CLIENT_SIDE = {"kustomization.yaml"}


def _validate(resource: dict) -> None:
    if kubernetes_validate is None:
        missing("kubernetes-validate is not installed (pip install -e 'results-analyzer[test]')")
    try:
        kubernetes_validate.validate(resource, K8S_VERSION, strict=True)
    except SchemaNotFoundError as e:
        raise AssertionError(f"no schema for {resource.get('kind')} {resource.get('apiVersion')}: {e.message}")
    except ValidationError as e:
        path = ".".join(str(p) for p in e.path)
        raise AssertionError(f"{resource['kind']}/{resource['metadata']['name']}: {path}: {e.message}")


def _manifests() -> list[Path]:
    return sorted(p for p in K8S_DIR.glob("*.yaml") if p.name not in CLIENT_SIDE)


def _resources(path: Path) -> list[dict]:
    return [r for r in yaml.safe_load_all(path.read_text(encoding="utf-8")) if r]


def _by_name(name: str) -> dict:
    (resource,) = _resources(K8S_DIR / name)
    return resource


def test_the_manifests_exist():
    names = {p.name for p in _manifests()}
    assert {"shards-job.yaml", "merge-job.yaml", "load-job.yaml", "configmap.yaml", "secret.yaml",
            "results-pvc.yaml"} <= names


@pytest.mark.parametrize("path", _manifests(), ids=lambda p: p.name)
def test_manifest_validates_against_the_pinned_kubernetes(path):
    resources = _resources(path)
    assert resources, f"{path.name} holds no resource"
    for resource in resources:
        _validate(resource)


def test_a_broken_manifest_fails():
    job = copy.deepcopy(_by_name("shards-job.yaml"))
    job["spec"]["completionMode"] = 4  # must be a string
    with pytest.raises(AssertionError, match="completionMode"):
        _validate(job)
    misspelt = copy.deepcopy(_by_name("shards-job.yaml"))
    misspelt["spec"]["template"]["spec"]["containers"][0]["volumeMount"] = []  # strict: unknown field
    with pytest.raises(AssertionError):
        _validate(misspelt)


def test_an_unknown_kind_fails():
    with pytest.raises(AssertionError, match="no schema"):
        _validate({"apiVersion": "batch/v1", "kind": "Jobb", "metadata": {"name": "x"}})


def test_the_shard_job_maps_the_completion_index_to_the_shard():
    job = _by_name("shards-job.yaml")
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    assert spec["completions"] == spec["parallelism"], "all shards must run at once (start barrier)"
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert int(env["SHARDS"]) == spec["completions"]
    script = " ".join(container["args"])
    assert '--shard "${JOB_COMPLETION_INDEX}/${SHARDS}"' in script
    assert "--barrier-timeout" in script and "--execute=true" in script


def test_the_merge_job_reads_every_shard_folder_and_the_same_shard_count():
    merge = _by_name("merge-job.yaml")
    shards = _by_name("shards-job.yaml")
    container = merge["spec"]["template"]["spec"]["containers"][0]
    script = " ".join(container["args"])
    assert "benchbase.jar merge -o" in script
    env = {e["name"]: e["value"] for e in container["env"]}
    shard_env = {e["name"]: e["value"] for e in shards["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert env["SHARDS"] == shard_env["SHARDS"] and env["RUN_ID"] == shard_env["RUN_ID"]


def test_the_password_comes_from_the_secret_file_the_config_names():
    config = _by_name("configmap.yaml")["data"]["config.xml"]
    secret = _by_name("secret.yaml")
    assert "<passwordFile>/etc/ivsbench/secret/password</passwordFile>" in config
    assert "password" in secret["stringData"]
    for name in ("shards-job.yaml", "load-job.yaml"):
        pod = _by_name(name)["spec"]["template"]["spec"]
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert volumes["secret"]["secret"]["secretName"] == secret["metadata"]["name"]
        mounts = {m["name"]: m["mountPath"] for m in pod["containers"][0]["volumeMounts"]}
        assert mounts["secret"] == "/etc/ivsbench/secret"
        assert mounts["config"] == "/etc/ivsbench/config"


def test_the_kustomization_lists_existing_files():
    k = yaml.safe_load((K8S_DIR / "kustomization.yaml").read_text(encoding="utf-8"))
    for name in k["resources"]:
        assert (K8S_DIR / name).is_file(), name


def test_the_dockerfile_runs_the_jar_on_java_17():
    lines = [ln.strip() for ln in (K8S_DIR.parent / "Dockerfile").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.strip().startswith("#")]
    assert lines[0].startswith("FROM eclipse-temurin:17-jre")
    assert "COPY target/benchbase.jar /opt/ivsbench/benchbase.jar" in lines
    assert any(ln.startswith("USER ") and not ln.startswith("USER root") for ln in lines)
    # Every instruction is a known one (a typo would only show when the image is built elsewhere).
    known = {"FROM", "RUN", "COPY", "USER", "WORKDIR", "ENTRYPOINT", "CMD", "ENV", "LABEL", "ARG", "EXPOSE"}
    for ln in lines:
        assert ln.split()[0] in known, ln
