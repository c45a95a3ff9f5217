package main

// Per-object checks: pod specs (probes, resources, security), Services, HPAs and NetworkPolicies.

import (
	"k8s.io/apimachinery/pkg/util/validation"
	"strings"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func (c *checker) checkPodSpec(o object, spec corev1.PodSpec) {
	volumes := map[string]bool{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = true
		if v.ConfigMap != nil && !isTrue(v.ConfigMap.Optional) {
			if _, ok := c.find("ConfigMap", o.ns, v.ConfigMap.Name); !ok {
				c.addf(o, "volume %q: ConfigMap %q not found", v.Name, v.ConfigMap.Name)
			}
		}
		if v.Secret != nil && !isTrue(v.Secret.Optional) {
			if _, ok := c.find("Secret", o.ns, v.Secret.SecretName); !ok {
				c.addf(o, "volume %q: Secret %q not found", v.Name, v.Secret.SecretName)
			}
		}
	}
	for _, ct := range append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...) {
		if errs := validation.IsDNS1123Label(ct.Name); len(errs) > 0 {
			c.addf(o, "container name %q: %s", ct.Name, strings.Join(errs, "; "))
		}
		if ct.Image == "" {
			c.addf(o, "container %q has no image", ct.Name)
		}
		ports := map[string]int32{}
		for _, p := range ct.Ports {
			if p.Name != "" {
				ports[p.Name] = p.ContainerPort
			}
		}
		for _, probe := range []struct {
			name  string
			probe *corev1.Probe
		}{{"livenessProbe", ct.LivenessProbe}, {"readinessProbe", ct.ReadinessProbe}, {"startupProbe", ct.StartupProbe}} {
			if probe.probe != nil && probe.probe.HTTPGet != nil {
				if port := probe.probe.HTTPGet.Port; port.Type == intstr.String {
					if _, ok := ports[port.StrVal]; !ok {
						c.addf(o, "container %q %s uses port %q, which the container does not declare", ct.Name, probe.name, port.StrVal)
					}
				}
			}
		}
		for _, ef := range ct.EnvFrom {
			if ef.ConfigMapRef != nil && !isTrue(ef.ConfigMapRef.Optional) {
				if _, ok := c.find("ConfigMap", o.ns, ef.ConfigMapRef.Name); !ok {
					c.addf(o, "container %q envFrom: ConfigMap %q not found", ct.Name, ef.ConfigMapRef.Name)
				}
			}
			if ef.SecretRef != nil && !isTrue(ef.SecretRef.Optional) {
				if _, ok := c.find("Secret", o.ns, ef.SecretRef.Name); !ok {
					c.addf(o, "container %q envFrom: Secret %q not found", ct.Name, ef.SecretRef.Name)
				}
			}
		}
		for _, e := range ct.Env {
			if e.ValueFrom == nil {
				continue
			}
			if r := e.ValueFrom.ConfigMapKeyRef; r != nil && !isTrue(r.Optional) {
				if found, ok := c.hasKey("ConfigMap", o.ns, r.Name, r.Key); !found || !ok {
					c.addf(o, "container %q env %s: ConfigMap %q key %q not found", ct.Name, e.Name, r.Name, r.Key)
				}
			}
			if r := e.ValueFrom.SecretKeyRef; r != nil && !isTrue(r.Optional) {
				if found, ok := c.hasKey("Secret", o.ns, r.Name, r.Key); !found || !ok {
					c.addf(o, "container %q env %s: Secret %q key %q not found", ct.Name, e.Name, r.Name, r.Key)
				}
			}
		}
		for _, m := range ct.VolumeMounts {
			if !volumes[m.Name] {
				c.addf(o, "container %q mounts volume %q, which the pod does not define", ct.Name, m.Name)
			}
		}
		for name, limit := range ct.Resources.Limits {
			if request, ok := ct.Resources.Requests[name]; ok && request.Cmp(limit) > 0 {
				c.addf(o, "container %q requests %s %s, above its limit %s", ct.Name, request.String(), name, limit.String())
			}
		}
	}
}

func (c *checker) checkService(o object, svc *corev1.Service) {
	if svc.Spec.Type == corev1.ServiceTypeExternalName || len(svc.Spec.Selector) == 0 {
		return
	}
	pods := c.selected(o.ns, labels.SelectorFromSet(svc.Spec.Selector))
	if len(pods) == 0 {
		c.addf(o, "selector %v selects no pod of a Deployment or Job", svc.Spec.Selector)
		return
	}
	for _, p := range svc.Spec.Ports {
		if p.Port < 1 || p.Port > 65535 {
			c.addf(o, "port %q: port %d out of range", p.Name, p.Port)
		}
		target := p.TargetPort
		if target.Type == intstr.Int && target.IntVal == 0 {
			target = intstr.FromInt32(p.Port)
		}
		for _, w := range pods {
			if !declaresPort(w.template, target) {
				c.addf(o, "port %q: targetPort %s is not a container port of %s %s", p.Name, target.String(), w.kind, w.name)
			}
		}
	}
}

func declaresPort(spec corev1.PodSpec, target intstr.IntOrString) bool {
	for _, ct := range spec.Containers {
		for _, p := range ct.Ports {
			if (target.Type == intstr.String && p.Name == target.StrVal) || (target.Type == intstr.Int && p.ContainerPort == target.IntVal) {
				return true
			}
		}
	}
	return false
}

func (c *checker) checkHPA(o object, hpa *autoscalingv2.HorizontalPodAutoscaler) {
	ref := hpa.Spec.ScaleTargetRef
	if _, ok := c.find(ref.Kind, o.ns, ref.Name); !ok {
		c.addf(o, "scaleTargetRef %s %q not found", ref.Kind, ref.Name)
	}
	if hpa.Spec.MinReplicas != nil && *hpa.Spec.MinReplicas > hpa.Spec.MaxReplicas {
		c.addf(o, "minReplicas %d > maxReplicas %d", *hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
	if len(hpa.Spec.Metrics) == 0 {
		c.addf(o, "no metrics")
	}
}

func (c *checker) checkNetworkPolicy(o object, np *networkingv1.NetworkPolicy) {
	if s, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector); err != nil {
		c.addf(o, "spec.podSelector: %v", err)
	} else if !s.Empty() && len(c.selected(o.ns, s)) == 0 {
		c.addf(o, "spec.podSelector (%s) selects no pod of a Deployment or Job", s)
	}
	for i, rule := range np.Spec.Ingress {
		for j, peer := range rule.From {
			if peer.PodSelector != nil {
				if _, err := metav1.LabelSelectorAsSelector(peer.PodSelector); err != nil {
					c.addf(o, "ingress[%d].from[%d].podSelector: %v", i, j, err)
				}
			}
			if peer.NamespaceSelector != nil {
				if _, err := metav1.LabelSelectorAsSelector(peer.NamespaceSelector); err != nil {
					c.addf(o, "ingress[%d].from[%d].namespaceSelector: %v", i, j, err)
				}
			}
		}
		for j, p := range rule.Ports {
			if p.Port != nil && p.Port.Type == intstr.Int && (p.Port.IntVal < 1 || p.Port.IntVal > 65535) {
				c.addf(o, "ingress[%d].ports[%d]: port %d out of range", i, j, p.Port.IntVal)
			}
		}
	}
}

func isTrue(b *bool) bool { return b != nil && *b }
