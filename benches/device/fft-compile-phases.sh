#!/usr/bin/env bash
# nvcc front end vs ptxas time per FFT module. Sources: `kernels-check --arch sm_90 --out DIR`;
# copy the wanted DIR/fft_*.hip into .carry/src/ before carrying .carry.
export PATH=/usr/local/cuda/bin:$PATH
t() { python3 -c 'import time;print(time.time())'; }
for f in .carry/src/*.hip; do
  b=$(basename $f .hip); cp $f /tmp/$b.cu
  s=$(t); nvcc -arch=sm_90 -ptx -o /tmp/$b.ptx /tmp/$b.cu 2>&1 | head -3; e=$(t)
  echo "$b front-end(ptx) $(python3 -c "print(round($e-$s,3))") s, ptx $(wc -c < /tmp/$b.ptx) bytes"
  for o in 3 1; do
    s=$(t); ptxas -arch=sm_90 -O$o -o /tmp/$b.O$o.cubin /tmp/$b.ptx 2>&1 | head -3; e=$(t)
    echo "   ptxas -O$o $(python3 -c "print(round($e-$s,3))") s"
  done
done
