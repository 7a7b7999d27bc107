#!/bin/sh
# slurm_one_node.sh start DIR | stop DIR: a one-node Slurm cluster on localhost with all its state
# in DIR (munged with its own key and socket, slurmctld and slurmd on free loopback ports,
# proctrack/linuxproc and task/none, no accounting), for the batch reprocessing test. `start`
# prints the environment a client needs (SLURM_CONF=...), waits until the node is idle, and
# fails naming the daemon that did not come up (its log's tail). `stop` stops each by its PID.
set -eu
command=$1
dir=$(realpath -m "$2")

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

stop_pid() {
    [ -f "$1" ] || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$1"
}

fail() {
    echo "slurm_one_node.sh: $1" >&2
    [ -f "$2" ] && tail -n 20 "$2" >&2
    exit 1
}

case $command in
start)
    for tool in munged slurmctld slurmd sbatch scontrol; do
        command -v $tool >/dev/null || { echo "slurm_one_node.sh: $tool is not installed: apt-get install slurm-wlm munge" >&2; exit 2; }
    done
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    chmod 700 "$dir/munge"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" \
        --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed" || fail "munged did not start" "$dir/munged.log"
    host=$(hostname -s)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=sonolinktest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=batch Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start" "$dir/slurmctld.log"
    slurmd -f "$SLURM_CONF" || fail "slurmd did not start" "$dir/slurmd.log"
    for _ in $(seq 100); do
        if sinfo -h -o '%t' 2>/dev/null | grep -q idle; then
            echo "SLURM_CONF=$SLURM_CONF"
            exit 0
        fi
        sleep 0.2
    done
    fail "the node did not come up idle within 20 s (sinfo: $(sinfo -h 2>&1 | head -1))" "$dir/slurmd.log"
    ;;
stop)
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munged.pid"
    ;;
*)
    echo "usage: slurm_one_node.sh start|stop DIR" >&2
    exit 2
    ;;
esac
