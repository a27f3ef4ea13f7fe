#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A one-machine Slurm for make check-slurm: a private munged (its own key and
# socket), slurmctld and slurmd on localhost, all state, logs and pid files under
# DIR; nothing in /etc is touched. Debian's slurmd, slurmctld, slurm-client and munge.
#   slurm_up.sh DIR     start; prints the SLURM_CONF to export
#   slurm_up.sh DIR down  stop what it started (by its pid files)
set -u
D=$1
if [ "${2:-}" = down ]; then
    for p in "$D/slurmd.pid" "$D/slurmctld.pid" "$D/munge/pid"; do
        [ -s "$p" ] || continue
        pid=$(cat "$p")
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null # still there after 5 s
    done
    exit 0
fi
mkdir -p "$D/state" "$D/spool" "$D/log" "$D/munge"
chmod 700 "$D/munge"
dd if=/dev/urandom of="$D/munge/key" bs=128 count=1 status=none
chmod 600 "$D/munge/key"
munged --force --key-file="$D/munge/key" --log-file="$D/munge/log" --pid-file="$D/munge/pid" \
    --seed-file="$D/munge/seed" --socket="$D/munge/sock" --num-threads=10 || exit 1
H=$(hostname -s)
cat >"$D/slurm.conf" <<CONF
ClusterName=membench
SlurmctldHost=$H(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge/sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldPort=${SLURM_TEST_PORT:-16817}
SlurmdPort=$((${SLURM_TEST_PORT:-16817} + 1))
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=pmix
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE
CONF
export SLURM_CONF=$D/slurm.conf
slurmctld -f "$SLURM_CONF" || exit 1
slurmd -f "$SLURM_CONF" || exit 1
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && { echo "$SLURM_CONF"; exit 0; }
    sleep 0.5
done
echo "slurm did not come up (see $D/log)" >&2
exit 1
