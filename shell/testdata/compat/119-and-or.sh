true && echo yes
false && echo no
false || echo fallback
true || echo never
mkdir -p x && cd x && pwd
