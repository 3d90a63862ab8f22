for i in {1..5}; do printf '%s ' $i; done
echo
echo {a,b,c}.txt
echo {01..03}
mkdir -p proj/{src,test}
ls proj
