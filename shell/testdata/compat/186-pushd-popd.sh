pushd src > /dev/null
pwd
popd > /dev/null
pwd
