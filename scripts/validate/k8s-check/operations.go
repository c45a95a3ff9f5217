package main

// Operational rules: what a valid manifest can still get wrong on a real cluster (found by an outside
// review; each rule names what it prevents).

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// kustomize's content-hash suffix: "-" and 10 characters of its alphabet (no vowels, no 0/1/3).
var hashSuffix = regexp.MustCompile(`-[bcdfghkmt2-9]{10}$`)

func (c *checker) checkOperations() {
	for _, o := range c.objects {
		if job, ok := o.obj.(*batchv1.Job); ok {
			c.checkJob(o, job)
		}
		if ing, ok := o.obj.(*networkingv1.Ingress); ok {
			c.checkIngress(o, ing)
		}
	}
	for _, w := range c.workloads {
		c.checkStartupBudget(w)
	}
	c.checkTopicsConfig()
	c.checkTraceEgress()
	c.checkCredentialsNotInConfigMaps()
	c.checkFileStore()
	c.checkAutoscaling()
	c.checkBackupEgress()
}

// checkJob: a Job's pod template is immutable. A reference to a generated (hashed) ConfigMap or Secret
// changes the template with every config change, and `kubectl apply` then fails while the Job exists;
// without ttlSecondsAfterFinished a finished Job exists forever.
func (c *checker) checkJob(o object, job *batchv1.Job) {
	if job.Spec.TTLSecondsAfterFinished == nil {
		c.addf(o, "no ttlSecondsAfterFinished: the finished Job stays, and any change to its (immutable) template makes `kubectl apply` fail")
	}
	for _, ref := range podSpecReferences(job.Spec.Template.Spec) {
		if hashSuffix.MatchString(ref) {
			c.addf(o, "pod template references %s, a generated name with a content hash: the next config change makes `kubectl apply` fail (immutable template); use a ConfigMap/Secret without hash suffix", ref)
		}
	}
}

// podSpecReferences lists the ConfigMaps and Secrets a pod spec names ("ConfigMap name", "Secret name").
func podSpecReferences(spec corev1.PodSpec) []string {
	var refs []string
	containers := append(append([]corev1.Container{}, spec.InitContainers...), spec.Containers...)
	for _, ct := range containers {
		for _, ef := range ct.EnvFrom {
			if ef.ConfigMapRef != nil {
				refs = append(refs, ef.ConfigMapRef.Name)
			}
			if ef.SecretRef != nil {
				refs = append(refs, ef.SecretRef.Name)
			}
		}
		for _, e := range ct.Env {
			if e.ValueFrom == nil {
				continue
			}
			if e.ValueFrom.ConfigMapKeyRef != nil {
				refs = append(refs, e.ValueFrom.ConfigMapKeyRef.Name)
			}
			if e.ValueFrom.SecretKeyRef != nil {
				refs = append(refs, e.ValueFrom.SecretKeyRef.Name)
			}
		}
	}
	for _, v := range spec.Volumes {
		if v.ConfigMap != nil {
			refs = append(refs, v.ConfigMap.Name)
		}
		if v.Secret != nil {
			refs = append(refs, v.Secret.SecretName)
		}
	}
	return refs
}

// configMap finds a rendered ConfigMap by its name before the hash suffix.
func (c *checker) configMap(base string) (object, *corev1.ConfigMap, bool) {
	for _, o := range c.objects {
		if cm, ok := o.obj.(*corev1.ConfigMap); ok && (o.name == base || (hashSuffix.MatchString(o.name) && hashSuffix.ReplaceAllString(o.name, "") == base)) {
			return o, cm, true
		}
	}
	return object{}, nil, false
}

// checkTopicsConfig: the kafka-topics Job reads ConfigMap kafka-topics (no hash suffix), generated from
// the same config.env as switchyard-config: an overlay that merges its values into only one of them
// would create the topics with other brokers, replication or TLS settings than the services use.
func (c *checker) checkTopicsConfig() {
	o, topics, ok := c.configMap("kafka-topics")
	if !ok {
		return
	}
	_, shared, ok := c.configMap("switchyard-config")
	if !ok {
		return
	}
	for key, value := range shared.Data {
		if !strings.HasPrefix(key, "KAFKA_") {
			continue
		}
		if got, has := topics.Data[key]; !has || got != value {
			c.addf(o, "%s=%q, but switchyard-config has %s=%q: merge the overlay's config.env into both generators", key, got, key, value)
		}
	}
	for key := range topics.Data {
		if _, has := shared.Data[key]; !has && strings.HasPrefix(key, "KAFKA_") {
			c.addf(o, "%s is set here but not in switchyard-config (the services would not use it)", key)
		}
	}
}

// printJobScript prints the last argument of the named Job's first container; exit status 0, or 2 when
// there is no such Job or argument.
func (c *checker) printJobScript(name string) int {
	for _, o := range c.objects {
		job, ok := o.obj.(*batchv1.Job)
		if !ok || o.name != name || len(job.Spec.Template.Spec.Containers) == 0 {
			continue
		}
		args := job.Spec.Template.Spec.Containers[0].Args
		if len(args) == 0 {
			break
		}
		fmt.Print(args[len(args)-1])
		return 0
	}
	fmt.Fprintf(os.Stderr, "k8s-check: no Job %q with a script argument\n", name)
	return 2
}

// checkKafkaTrigger: KEDA's view of the consumer must be the consumer's. offsetResetPolicy as the
// consumer's (earliest: ADR 0002), the brokers from the Deployment's own KAFKA_BROKERS (not a second,
// hard-coded list), and an authenticationRef to a rendered TriggerAuthentication (a secured cluster
// refuses an unauthenticated scaler, and KEDA then stops scaling).
func (c *checker) checkKafkaTrigger(o object, target string, md map[string]string, auth string) {
	if md["offsetResetPolicy"] != "earliest" {
		c.addf(o, "kafka trigger offsetResetPolicy %q: the consumers start at the earliest offset (ADR 0002), KEDA must count lag the same way (earliest)", md["offsetResetPolicy"])
	}
	if md["bootstrapServers"] != "" {
		c.addf(o, "kafka trigger hard-codes bootstrapServers %q: use bootstrapServersFromEnv: KAFKA_BROKERS (the Deployment's own setting)", md["bootstrapServers"])
	}
	if env := md["bootstrapServersFromEnv"]; env != "" && !c.deploymentHasEnv(o.ns, target, env) {
		c.addf(o, "bootstrapServersFromEnv %s: Deployment %s has no such variable (env or envFrom ConfigMap)", env, target)
	}
	if auth == "" {
		c.addf(o, "kafka trigger has no authenticationRef: KEDA cannot read the lag of a TLS/SASL cluster")
	} else if _, ok := c.find("TriggerAuthentication", o.ns, auth); !ok {
		c.addf(o, "authenticationRef %q: no such TriggerAuthentication", auth)
	}
}

// deploymentHasEnv: the Deployment's first container sets name in env, or a rendered ConfigMap it loads
// with envFrom has that key.
func (c *checker) deploymentHasEnv(ns, deployment, name string) bool {
	for _, w := range c.workloads {
		if w.kind != "Deployment" || w.ns != ns || w.name != deployment || len(w.template.Containers) == 0 {
			continue
		}
		ct := w.template.Containers[0]
		for _, e := range ct.Env {
			if e.Name == name {
				return true
			}
		}
		for _, ef := range ct.EnvFrom {
			if ef.ConfigMapRef == nil {
				continue
			}
			if found, has := c.hasKey("ConfigMap", ns, ef.ConfigMapRef.Name, name); found && has {
				return true
			}
		}
	}
	return false
}
