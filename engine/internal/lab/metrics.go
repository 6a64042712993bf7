package lab

// Metric is one measure of a run, reported per point as a mean with its
// 95% confidence interval over the runs.
type Metric struct {
	Name  string `json:"name"`
	Unit  string `json:"unit"` // ms, jobs, writes, ..., or jobs/s
	Label Title  `json:"label"`
}

// Metrics are the measures, in the order every output lists them.
var Metrics = []Metric{
	{"dup_ms", "ms", Title{"duplicate work: ms of work done again", "중복 작업: 다시 한 작업의 시간"}},
	{"dup_jobs", "jobs", Title{"jobs worked on more than once", "두 번 이상 작업한 일"}},
	{"stall_ms", "ms", Title{"stall after a crash: ms a job sat idle until reclaimed", "크래시 뒤 멈춤: 다시 가져가기까지 일이 놀던 시간"}},
	{"stale_refused", "writes", Title{"stale writes the token refused", "token이 거절한 낡은 쓰기"}},
	{"stale_landed", "writes", Title{"stale writes that landed over a newer one", "새 쓰기를 덮어쓴 낡은 쓰기"}},
	{"late_writes", "writes", Title{"stale writes taken before the newer holder wrote", "새 보유자가 쓰기 전에 받아들여진 낡은 쓰기"}},
	{"overlaps", "claims", Title{"lease overlaps: a claim granted while, in true time, the last lease still ran", "임대 겹침: 실제 시간으로 이전 임대가 아직 유효할 때 허락된 선점"}},
	{"quarantined", "jobs", Title{"jobs quarantined", "격리된 일"}},
	{"unfinished", "jobs", Title{"jobs unfinished at the horizon: neither done nor quarantined", "한도 시간에 끝나지 않은 일: 완료도 격리도 되지 않은 일"}},
	{"double_applied", "deliveries", Title{"deliveries the receiver applied twice", "수신자가 두 번 적용한 전달"}},
	{"cancelled", "attempts", Title{"attempts a worker gave up (renew refused or margin)", "작업자가 포기한 시도(갱신 거절 또는 여유)"}},
	{"renews", "calls", Title{"renew calls per job: the heartbeat's cost", "일 하나당 갱신 호출: 하트비트의 비용"}},
	{"jobs_per_s", "jobs/s", Title{"jobs finished per second of virtual time", "가상 시간 초당 끝낸 일"}},
}

// MetricNames are the metrics' names in order.
func MetricNames() []string {
	out := make([]string, len(Metrics))
	for i, m := range Metrics {
		out[i] = m.Name
	}
	return out
}

// metricIndex is the metric's place in Metrics, or -1.
func metricIndex(name string) int {
	for i, m := range Metrics {
		if m.Name == name {
			return i
		}
	}
	return -1
}

// measures are one run's measures, by Metrics' order. A measure that a run
// cannot have (a stall in a run without a crash) is absent (Has false)
// and does not count toward its mean.
type measures struct {
	V   [13]float64
	Has [13]bool
}

func (s *measures) set(name string, v float64) {
	i := metricIndex(name)
	s.V[i], s.Has[i] = v, true
}
