package datasets

import (
	"fmt"
	"testing"
)

// benchRows are Typhoon-sized synthetic rows: a 145-byte board, a position
// text of about 200 characters and 50 policy entries, as in self-play rows.
func benchRows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		r := &rows[i]
		*r = Row{RunID: "bench", Game: "typhoon", RulesVersion: "seed-000", GameNumber: int64(i / 120), Ply: int32(i % 120),
			SideToMove: "blue", Result: int8(i%3 - 1), Termination: "resignation", RootValue: 0.25, Move: "d10e8",
			LegalMoves: 60, StaticEval: -0.5, WeightsVersion: "typhoon-start-1",
			Position: fmt.Sprintf("gw,pr,go,sa,fl,co,k,gg,ci,st,ma,fh/hu,1,bd,1,d,f,w,a,1,c,1,cu/be,un,wa,der,cg,bt,del,sg,n,ch,ov,ot/fu,p,p,gu,p,p,p,p,gu,p,p,fu/3,ba,4,la,3/12/12/3,LA,4,BA,3/FU,P,P,GU,P,P,P,P,GU,P,P,FU/OT,OV,CH,N,SG,DEL,BT,CG,DER,WA,UN,BE/CU,1,C,1,A,W,F,D,1,BD,1,HU/FH,MA,ST,CI,GG,K,CO,FL,SA,GO,PR,GW blue %d", i)}
		r.Board = make([]byte, 145)
		for sq := range r.Board {
			r.Board[sq] = byte((sq*7 + i) % 151)
		}
		for j := 0; j < 50; j++ {
			r.Visits = append(r.Visits, Visit{Move: fmt.Sprintf("%c%d%c%d", 'a'+j%12, j%12+1, 'a'+(j+i)%12, (j*5)%12+1), Visits: int32(j%7 + 1)})
		}
	}
	return rows
}

// BenchmarkWrite reports rows written per second and bytes per row on disk.
func BenchmarkWrite(b *testing.B) {
	rows := benchRows(4096)
	dir := b.TempDir()
	w, err := NewWriter(WriterConfig{Dir: dir, Game: "typhoon"})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Write(rows[i%len(rows) : i%len(rows)+1]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	var bytes int64
	for _, f := range w.Files() {
		bytes += f.Bytes
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/row")
}

// BenchmarkScan reports rows read per second, all columns and two.
func BenchmarkScan(b *testing.B) {
	dir := b.TempDir()
	w, _ := NewWriter(WriterConfig{Dir: dir, Game: "typhoon"})
	w.Write(benchRows(8192))
	w.Close()
	for _, cols := range [][]string{nil, {"board", "result"}} {
		b.Run(fmt.Sprint(len(cols)), func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				Scan([]string{dir}, cols, func(*Row) error { n++; return nil })
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
