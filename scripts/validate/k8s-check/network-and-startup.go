package main

// Operational rules about the network and start-up: trace egress under default-deny policies, MongoDB
// services' startup budget, and the Ingress limits for WebSockets and uploads.

import (
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// otlpPorts: the OpenTelemetry collector's ports (gRPC, HTTP). Under a default-deny egress policy, traces
// are dropped silently unless some policy lets every Switchyard service reach them.
var otlpPorts = []int32{4317, 4318}

func (c *checker) checkTraceEgress() {
	restricted := false
	for _, o := range c.objects {
		if np, ok := o.obj.(*networkingv1.NetworkPolicy); ok && hasPolicyType(np, networkingv1.PolicyTypeEgress) {
			restricted = true
		}
	}
	if !restricted {
		return
	}
	for _, w := range c.workloads {
		if w.kind != "Deployment" || len(w.template.Containers) == 0 || !strings.Contains(w.template.Containers[0].Image, "switchyard/") {
			continue
		}
		for _, port := range otlpPorts {
			if !c.egressAllows(w, port) {
				c.addf(w.object, "no NetworkPolicy lets it reach TCP %d (OTLP): its traces are dropped under the default-deny egress", port)
			}
		}
	}
}

func hasPolicyType(np *networkingv1.NetworkPolicy, t networkingv1.PolicyType) bool {
	for _, pt := range np.Spec.PolicyTypes {
		if pt == t {
			return true
		}
	}
	return false
}

// egressAllows: some egress policy selecting the workload's pods has a rule open on TCP port (a rule with
// no ports opens every port).
func (c *checker) egressAllows(w workload, port int32) bool {
	for _, o := range c.objects {
		np, ok := o.obj.(*networkingv1.NetworkPolicy)
		if !ok || o.ns != w.ns || !hasPolicyType(np, networkingv1.PolicyTypeEgress) {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
		if err != nil || !sel.Matches(w.labels) {
			continue
		}
		for _, rule := range np.Spec.Egress {
			if len(rule.Ports) == 0 {
				return true
			}
			for _, p := range rule.Ports {
				if p.Port == nil || (p.Protocol != nil && *p.Protocol != corev1.ProtocolTCP) {
					continue
				}
				end := p.Port.IntVal
				if p.EndPort != nil {
					end = *p.EndPort
				}
				if p.Port.IntVal <= port && port <= end {
					return true
				}
			}
		}
	}
	return false
}

// minMongoStartupSeconds: a service with a MongoDB database creates its indexes before it listens
// (ADR 0025); its startupProbe must leave that long before the kubelet kills it.
const minMongoStartupSeconds = 300

func (c *checker) checkStartupBudget(w workload) {
	if w.kind != "Deployment" {
		return
	}
	for _, ct := range w.template.Containers {
		usesMongo := false
		for _, ef := range ct.EnvFrom {
			if ef.SecretRef != nil && strings.HasSuffix(hashSuffix.ReplaceAllString(ef.SecretRef.Name, ""), "-mongo") {
				usesMongo = true
			}
		}
		if !usesMongo {
			continue
		}
		p := ct.StartupProbe
		if p == nil {
			c.addf(w.object, "container %s uses MongoDB but has no startupProbe: index creation before listen competes with liveness", ct.Name)
			continue
		}
		period, threshold := p.PeriodSeconds, p.FailureThreshold
		if period == 0 {
			period = 10
		}
		if threshold == 0 {
			threshold = 3
		}
		if budget := int(period) * int(threshold); budget < minMongoStartupSeconds {
			c.addf(w.object, "container %s: startupProbe allows %d s (periodSeconds %d x failureThreshold %d), less than the %d s its index creation before listen may take (ADR 0025)", ct.Name, budget, period, threshold, minMongoStartupSeconds)
		}
	}
}

// wsPingIntervalSeconds: realtime's WS_PING_INTERVAL_MS default; maxFileSizeBytes: FileSettings.MaxFileSize's.
const (
	wsPingIntervalSeconds = 60
	maxFileSizeBytes      = 104857600
)

// checkIngress (ingress-nginx annotations): an idle WebSocket must outlive the ping interval, and an
// upload of MaxFileSize must fit the body limit (nginx's default 1m refuses it with 413).
func (c *checker) checkIngress(o object, ing *networkingv1.Ingress) {
	a := ing.Annotations
	for _, key := range []string{"proxy-read-timeout", "proxy-send-timeout"} {
		v, err := strconv.Atoi(a["nginx.ingress.kubernetes.io/"+key])
		if err != nil || v <= wsPingIntervalSeconds {
			c.addf(o, "nginx.ingress.kubernetes.io/%s %q: must be above realtime's ping interval (%d s) or idle WebSockets are cut", key, a["nginx.ingress.kubernetes.io/"+key], wsPingIntervalSeconds)
		}
	}
	size := strings.TrimSpace(a["nginx.ingress.kubernetes.io/proxy-body-size"])
	n, err := strconv.ParseInt(strings.TrimRight(strings.ToLower(size), "kmg"), 10, 64)
	unit := map[string]int64{"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[strings.ToLower(size[max(0, len(size)-1):])]
	if unit == 0 {
		unit = 1
	}
	if size != "0" && (err != nil || n*unit < maxFileSizeBytes) {
		c.addf(o, "nginx.ingress.kubernetes.io/proxy-body-size %q: below FileSettings.MaxFileSize (%d bytes): uploads get 413 from the ingress", size, maxFileSizeBytes)
	}
}
