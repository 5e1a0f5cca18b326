"""deploy/kubernetes/: every manifest valid against the Kubernetes API schemas (kubernetes-validate bundles them;
strict: an unknown field is an error, as a typo in a probe would be), and the values that must agree with
deploy/haproxy.cfg, the Dockerfile and the app's config do."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted((ROOT / "deploy" / "kubernetes").glob("*.yaml"))
HAPROXY = (ROOT / "deploy" / "haproxy.cfg").read_text()
K8S_VERSION = "1.30.0"  # the oldest version still supported by the big clouds at the time of writing


def validator():
    """kubernetes_validate (requirements-dev.txt); missing, a skip, or a failure under REQUIRE_PROXY=1 (CI)."""
    try:
        import kubernetes_validate
    except ImportError:
        if os.environ.get("REQUIRE_PROXY") == "1":
            pytest.fail("REQUIRE_PROXY=1 but kubernetes-validate is not installed (requirements-dev.txt)")
        pytest.skip("kubernetes-validate is not installed (pip install -r requirements-dev.txt)")
    return kubernetes_validate


def documents() -> list[dict]:
    return [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def kind(name: str) -> dict:
    (found,) = [doc for doc in documents() if doc["kind"] == name]
    return found


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda path: path.name)
def test_every_manifest_is_valid_against_the_api_schemas(path):
    kubernetes_validate = validator()
    for doc in yaml.safe_load_all(path.read_text()):
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)  # raises ValidationError


def test_a_broken_manifest_is_caught():
    kubernetes_validate = validator()
    broken = kind("Deployment")
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["paht"] = "/x"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def haproxy(setting: str) -> str:
    return re.search(rf"^\s*{setting}\s+(.+)$", HAPROXY, re.M).group(1).strip()


def seconds(text: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h)", text).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit]


def test_ports_and_health_path_agree_with_the_image_and_haproxy():
    container = kind("Deployment")["spec"]["template"]["spec"]["containers"][0]
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    port = container["ports"][0]["containerPort"]
    assert f"EXPOSE {port}" in dockerfile and f'"--server.port", "{port}"' in dockerfile
    assert "port" not in tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text()).get("server", {})
    health = haproxy("option httpchk").split()[-1]
    assert health == "/_stcore/health"
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert container[probe]["httpGet"] == {"path": health, "port": container["ports"][0]["name"]}
    service = kind("Service")["spec"]["ports"][0]
    assert service["targetPort"] == container["ports"][0]["name"]
    ingress_port = kind("Ingress")["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["port"]
    assert ingress_port == {"name": service["name"]}


def test_probe_timings_follow_the_measured_health_checks():
    container = kind("Deployment")["spec"]["template"]["spec"]["containers"][0]
    ready, alive = container["readinessProbe"], container["livenessProbe"]
    check = haproxy("default-server")
    inter = seconds(re.search(r"\binter (\S+)", check).group(1))
    fall, rise = (int(re.search(rf"\b{w} (\d+)", check).group(1)) for w in ("fall", "rise"))
    assert ready["timeoutSeconds"] == seconds(haproxy("timeout check"))  # a slow answer is not a failure
    assert (ready["periodSeconds"], ready["failureThreshold"], ready["successThreshold"]) == (inter, fall, rise)
    assert ready["periodSeconds"] * ready["failureThreshold"] <= 3  # out of rotation within 3 s of dying
    # lenient: a restart only after a minute of misses, far beyond a slow replica's worst answer
    assert alive["periodSeconds"] * alive["failureThreshold"] >= 60 and alive["timeoutSeconds"] >= ready[
        "timeoutSeconds"]


def test_the_ingress_pins_browsers_by_haproxys_cookie_with_its_websocket_timeouts():
    notes = kind("Ingress")["metadata"]["annotations"]
    cookie = re.search(r"^\s*cookie (\S+) insert", HAPROXY, re.M).group(1)
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-name"] == cookie
    assert notes["nginx.ingress.kubernetes.io/session-cookie-samesite"] in HAPROXY  # SameSite=Lax
    tunnel = seconds(haproxy("timeout tunnel"))
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) == tunnel
    assert int(notes["nginx.ingress.kubernetes.io/proxy-send-timeout"]) == tunnel
    assert int(notes["nginx.ingress.kubernetes.io/proxy-connect-timeout"]) == seconds(haproxy("timeout connect"))
    config = kind("ConfigMap")["data"]
    types = set(haproxy("compression type").split())
    assert config["use-gzip"] == "true" and set(config["gzip-types"].split()) == types
    assert set(config["brotli-types"].split()) == types


def test_the_database_comes_from_a_secret_and_the_password_as_a_file():
    pod = kind("Deployment")["spec"]["template"]["spec"]
    env = {e["name"]: e for e in pod["containers"][0]["env"]}
    secret = kind("Secret")
    for name in ("ATTN_DB_HOST", "ATTN_DB_PORT", "ATTN_DB_NAME", "ATTN_DB_USER"):
        ref = env[name]["valueFrom"]["secretKeyRef"]
        assert ref["name"] == secret["metadata"]["name"] and ref["key"] in secret["stringData"]
    assert "ATTN_DB_PASSWORD" not in env and "ATTN_LAB_DATABASE_URL" not in env
    (volume,) = pod["volumes"]
    assert volume["secret"]["secretName"] == secret["metadata"]["name"]
    mount = pod["containers"][0]["volumeMounts"][0]
    assert env["ATTN_DB_PASSWORD_FILE"]["value"] == f"{mount['mountPath']}/{volume['secret']['items'][0]['path']}"
    assert pod["securityContext"]["runAsUser"] == 10001  # the image's user (useradd --uid 10001)


def test_the_autoscaler_and_the_budget_target_the_deployment():
    deployment = kind("Deployment")
    hpa, pdb = kind("HorizontalPodAutoscaler"), kind("PodDisruptionBudget")
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert hpa["spec"]["metrics"][0]["resource"]["name"] == "cpu"
    assert pdb["spec"]["selector"] == deployment["spec"]["selector"]
    assert hpa["spec"]["minReplicas"] - pdb["spec"]["maxUnavailable"] >= 2  # a drain leaves two pods serving
    assert deployment["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["cpu"]


def test_a_phones_held_check_ends_before_any_proxy_gives_up_on_it():
    """The stamp route holds a phone's GET up to HOLD_S (a long poll): HAProxy's `timeout server` and the ingress's
    read timeout must both be longer, or every idle phone would get a 504 instead of its answer."""
    from attn_ui.views.poll_route import HOLD_S

    notes = kind("Ingress")["metadata"]["annotations"]
    assert seconds(haproxy("timeout server")) >= HOLD_S + 5
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= HOLD_S + 5
