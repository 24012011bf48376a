#!/bin/sh
# The chain of commands that made the shipped contact net (weights.npz), 1 Dec 2026,
# GNU Backgammon 1.07 as the teacher. Each step resumes where a stopped run left off
# (chunk files are skipped when present). Run from the repository root; the data goes
# to runs/ (about 30 MB, not committed: these commands remake it, seeded).
# The intermediate nets are committed beside this file (0_td.npz is the TD net).
# The inputs grew while this ran: step 1 was fitted with 201 inputs, step 2 with 205
# (shots, primes), step 4 with today's 207 (escapes). Rerun today, steps 1 and 2 give
# slightly different nets (their new inputs learn too); the data do not change (the
# new inputs of a net made for fewer start with zero weights, so self-play is the same).
set -e
R=benchmarks/results/backgammon_supervised
SV="taskset -c 1 nice -n 10 python -m dicehall.bots.backgammon.supervised"

# 1. 200,000 positions from TD-net self-play, gnubg 0-ply; fit from the TD net, widened to 256
$SV --out runs/sup0 --chunks 200 --seed 2 --start $R/0_td.npz --teacher-plies 0 \
    --gnubg-procs 12 --hidden 256 --epochs 8 --lr 0.001 --batch 64 --export $R/1_sup0.npz
# 2. 200,000 positions from TD-net self-play (another seed), gnubg 1-ply; fit from step 1
#    (an earlier fit on the first 100 chunks only, 2_fit2a.npz, sampled the positions of 3b)
$SV --out runs/sup1 --chunks 200 --seed 3 --start $R/0_td.npz --teacher-plies 1 \
    --gnubg-procs 12 --data-only
mkdir -p runs/fit2a
for i in $(seq 0 99); do f=$(printf %04d "$i")
  ln -sf ../sup1/targets-$f.npz runs/fit2a/; ln -sf ../sup1/positions-$f.npz runs/fit2a/; done
$SV --out runs/fit2a --chunks 100 --seed 3 --start $R/1_sup0.npz --hidden 256 --epochs 8 \
    --lr 0.0007 --batch 64 --export $R/2_fit2a.npz
$SV --out runs/sup1 --chunks 200 --seed 3 --start $R/1_sup0.npz --hidden 256 --epochs 10 \
    --lr 0.0007 --batch 64 --export $R/3_sup1.npz
# 3a. 400,000 positions from self-play of step 2's net, gnubg 0-ply
$SV --out runs/sup0b --chunks 400 --seed 5 --start $R/3_sup1.npz --teacher-plies 0 \
    --gnubg-procs 16 --data-only
# 3b. 150,000 positions from self-play of 2_fit2a.npz, gnubg 1-ply (the run was stopped
#     at 150 of 200 chunks: --chunks 150 makes the same ones)
$SV --out runs/sup1b --chunks 150 --seed 4 --start $R/2_fit2a.npz --teacher-plies 1 \
    --gnubg-procs 12 --data-only
# 4. all 950,000 together (chunks linked in this order, the last one held out), from step 2
mkdir -p runs/final; k=0
for set in sup0:200 sup0b:400 sup1:200 sup1b:150; do
  d=${set%%:*}; n=${set##*:}; i=0
  while [ $i -lt $n ]; do
    s=$(printf %04d $i); t=$(printf %04d $k)
    ln -sf ../$d/targets-$s.npz runs/final/targets-$t.npz
    ln -sf ../$d/positions-$s.npz runs/final/positions-$t.npz
    i=$((i+1)); k=$((k+1))
  done
done
$SV --out runs/final --chunks 950 --seed 6 --start $R/3_sup1.npz --hidden 256 --epochs 6 \
    --lr 0.0005 --batch 128 --export runs/final/w.npz
# the shipped file is runs/final/w.npz with its meta notes rewritten (same weights)
