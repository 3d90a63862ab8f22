# cd -P and pwd -P keep a leading // (as $PWD shows it) through relative
# links, also relative ones found through .. and link chains; a link with
# an absolute target restarts the path with one slash
top=$PWD
mkdir -p cdt/a/b && cd cdt && ln -s a/b lnk && ln -s ../a a/up && ln -s "$top/cdt/a" abs && ln -s abs rel2
cd "/$top/cdt"; pwd; cd -P lnk; pwd
cd "/$top/cdt/lnk"; pwd; cd -P .; pwd; pwd -P
cd "/$top/cdt" && cd -P ./lnk/..; pwd
cd -P "/$top/cdt/lnk"; pwd
cd "/$top/cdt"; cd -P a/up/b; pwd
cd -L "/$top/cdt/lnk/.."; pwd
cd -P "/$top/cdt/abs"; pwd; cd "/$top/cdt/abs"; pwd -P; cd -P "/$top/cdt/rel2"; pwd
cd //; pwd; cd -P //; pwd
