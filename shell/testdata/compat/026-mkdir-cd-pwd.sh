mkdir -p build/out && cd build/out && pwd
cd ../..
pwd
