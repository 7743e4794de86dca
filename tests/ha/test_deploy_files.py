"""deploy/'s Patroni and etcd files hold what the failover tests measured (tests/ha/): the same
timings, within Patroni's rule, a synchronous standby, pg_rewind, three etcd members."""

from __future__ import annotations

import shutil
import subprocess

from tests.ha.common import DEPLOY, patroni_yml
from tests.ha.patroni_cluster import TIMINGS


def test_production_uses_the_timings_the_tests_measured_within_patronis_rule() -> None:
    dcs = patroni_yml()["bootstrap"]["dcs"]
    assert {k: dcs[k] for k in TIMINGS} == TIMINGS
    assert dcs["loop_wait"] + 2 * dcs["retry_timeout"] <= dcs["ttl"]


def test_a_commit_is_acknowledged_on_two_servers_and_an_old_primary_rewinds() -> None:
    conf = patroni_yml()
    dcs = conf["bootstrap"]["dcs"]
    assert dcs["synchronous_mode"] is True and dcs["synchronous_mode_strict"] is False
    assert dcs["postgresql"]["use_pg_rewind"] is True
    assert dcs["postgresql"]["parameters"]["wal_log_hints"] == "on"
    assert len(conf["etcd3"]["hosts"]) == 3


def test_three_etcd_members_and_units_that_start_them() -> None:
    env = dict(line.split("=", 1) for line in (DEPLOY / "etcd" / "etcd.env").read_text()
               .splitlines() if line and not line.startswith("#"))
    assert len(env["ETCD_INITIAL_CLUSTER"].split(",")) == 3
    etcd = (DEPLOY / "systemd" / "holdem-etcd.service").read_text()
    patroni = (DEPLOY / "systemd" / "holdem-patroni.service").read_text()
    assert "EnvironmentFile=/etc/holdem/etcd.env" in etcd
    assert "ExecStart=/usr/bin/patroni /etc/holdem/patroni.yml" in patroni
    assert "KillMode=process" in patroni  # Patroni stops PostgreSQL itself
    if shutil.which("systemd-analyze"):
        for unit in ("holdem-etcd.service", "holdem-patroni.service"):
            done = subprocess.run(["systemd-analyze", "verify", str(DEPLOY / "systemd" / unit)],
                                  capture_output=True, text=True)
            assert "Unknown key" not in done.stderr and "Invalid" not in done.stderr


def test_the_example_database_url_names_both_servers() -> None:
    example = (DEPLOY / "env.example").read_text()
    assert ",10.0.0.2:5432/holdem?target_session_attrs=read-write" in example
