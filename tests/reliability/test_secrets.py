"""Canary secrets in pitches, names, reasons, own answers, standup replies, model outputs and the
API-key settings never reach any file the game writes: save dir (WAL included), settings, logs,
exported report. The test scans the bytes while the session is open and after it closes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.config import Settings, changed_fields, load_settings, save_choices
from engine.play.headless import Plan, play
from engine.routing import Router
from engine.session.api import GameSession
from engine.session.commands import Approve, Decide, RunStage, StandupReply
from engine.session.replay import verify

CANARIES = {
    "pitch": "sk-proj-PITCHCANARY0a1b2c3d4e5f6g7h8",
    "name": "ghp_NAMECANARY0123456789abcdefghijklmnop",
    "reason": "AKIAREASONCANARY0123",
    "own": "xoxb-OWNCANARY-0123456789",
    "reply": "glpat-REPLYCANARY0123456789ab",
    "model": "sk-ant-MODELCANARY0123456789abcdefgh",
    "standup": "github_pat_STANDUPCANARY0123456789abcd",
    "local_key": "sk-LOCALKEYCANARY0123456789abcdefgh",
    "foundry_key": "FOUNDRYKEYCANARY0123456789abcdef",
}


def _files(*roots: Path) -> list[Path]:
    return [p for root in roots if root.exists() for p in root.rglob("*") if p.is_file()]


def scan(*roots: Path) -> dict[str, list[str]]:
    """Canary name → files whose bytes hold it (plain, or as the JSON-escaped or UTF-16 form)."""
    hits: dict[str, list[str]] = {}
    for path in _files(*roots):
        data = path.read_bytes()
        for name, canary in CANARIES.items():
            forms = (canary.encode(), canary.encode("utf-16-le"), canary[4:20].encode())
            if any(f in data for f in forms):
                hits.setdefault(name, []).append(path.name)
    return hits


def _model_payload(artifacts: dict[int, dict[str, Any]]):
    def plant(value: Any) -> Any:
        if isinstance(value, str) and len(value) > 30:
            return f"{value[:20]} token {CANARIES['model']} {value[20:]}"
        if isinstance(value, dict):
            return {k: plant(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plant(v) for v in value]
        return value

    planted = {n: plant(a) for n, a in artifacts.items()}

    def payload(body: dict[str, Any]) -> Any:
        user = next(m["content"] for m in body["messages"] if m["role"] == "user")
        match = re.search(r"Stage (\d+) ", user)
        if match is None:
            return {"line": f"Heard you; my key is {CANARIES['standup']} for the record."}
        return planted[int(match.group(1))]

    return payload


def test_no_canary_reaches_disk(fake_openai_factory, isolated_home, tmp_path, monkeypatch):
    from tests.reliability.soak_worker import _artifacts

    pitch = "Repair bookings for independent bike shops"
    artifacts = _artifacts(tmp_path / "art", pitch)
    server = fake_openai_factory(
        "ollama", payload=_model_payload(artifacts), api_key=CANARIES["local_key"]
    )
    monkeypatch.setenv("LOCAL_AGENT_API_KEY", CANARIES["local_key"])
    monkeypatch.setenv("FOUNDRY_API_KEY", CANARIES["foundry_key"])
    settings = Settings(
        demo_mode="local",
        local_agent_base_url=server.url,
        local_agent_model="qwen2.5",
        agent_request_timeout=5.0,
        local_agent_api_key=CANARIES["local_key"],
        foundry_api_key=CANARIES["foundry_key"],
    )
    save_choices(changed_fields(Settings(), settings))
    assert load_settings().local_agent_api_key.get_secret_value() == CANARIES["local_key"]
    save_dir = isolated_home
    session = GameSession.start_venture(
        pitch=f"{pitch} with key {CANARIES['pitch']}",
        name=f"Spoke {CANARIES['name']}",
        seed=6,
        save_dir=save_dir,
        router=Router(settings),
    )
    try:
        plan = Plan(
            said={
                "reject": {
                    "stage_2_need": [
                        f"Too vague: charge $20 a month, and stop pasting {CANARIES['reason']}"
                    ]
                },
                "decide_own": {
                    "stage_3_go": [f"Partner with repair collectives using {CANARIES['own']}"]
                },
            },
        )
        session.give(RunStage)
        session.give(Approve)
        session.give(Decide, "A")
        if session.can("standup_reply"):
            session.give(StandupReply, f"Keep going; the vault token is {CANARIES['reply']}")
        play(session, plan)
        executed = [e for e in session.events() if e.type == "STAGE_EXECUTED"]
        assert any(e.payload["served_by"] == "local" for e in executed)  # the model really served
        report = session.export_report(save_dir / "report.md")
        assert (save_dir / "worldforge.db-wal").exists()
        open_hits = scan(save_dir, tmp_path / "art", report.parent)
        assert verify(session.conn, session.state.run_id).ok
    finally:
        session.close()
    closed_hits = scan(save_dir)
    assert server.chat_requests and all(
        r.headers.get("authorization") == f"Bearer {CANARIES['local_key']}"
        for r in server.chat_requests
    )
    print(
        f"\ncanary hits: open {sum(map(len, open_hits.values()))}, closed "
        f"{sum(map(len, closed_hits.values()))} across {len(_files(save_dir))} files"
    )
    assert open_hits == {} and closed_hits == {}
