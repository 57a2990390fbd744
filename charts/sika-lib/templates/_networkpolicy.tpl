{{/*
NetworkPolicy. Each service chart declares the edges the architecture gives it (who may call which of its
ports, which services and which infrastructure it calls); everything else is denied in both directions.

  (dict "root" .
        "ingress" (list (dict "port" "grpc" "peers" (list "gateway" "payments") "from" "operatorsFrom"))
        "egress" (list "merchants" "ledger")
        "infrastructure" (list "postgres" "rabbitmq")
        "extraEgress" (list <raw egress rules>))

ingress[].peers:  services of the same release allowed on that port.
ingress[].from:   a list of .Values.networkPolicy also allowed on that port (e.g. operatorsFrom).
ingress[].public: when true and that list is empty, the port is open to any source (gateway's public API).
                  A port with neither peers nor sources gets no rule: closed (an empty `from` would open it).
egress:           services of the same release this one calls, on the port in .Values.peers.<name>.port.
infrastructure:   postgres, rabbitmq, redis: ports and destinations in .Values.infrastructure (empty `to`:
                  any destination, on that port only).
Always: DNS, and the metrics port (the operations port: /metrics, /healthz, /readyz) from
.Values.networkPolicy.metricsFrom (empty: from any pod).
.Values.global.networkPolicy and .Values.global.infrastructure, when set, win over the chart's own values.
*/}}

{{- define "sika-lib.networkPolicySettings" -}}
{{- $global := .Values.global | default dict -}}
{{- $np := merge (dict) (deepCopy (dig "networkPolicy" dict $global)) (deepCopy .Values.networkPolicy) -}}
{{- $_ := set $np "enabled" (ternary (dig "networkPolicy" "enabled" false $global) .Values.networkPolicy.enabled (hasKey (dig "networkPolicy" dict $global) "enabled")) -}}
{{- $infra := merge (dict) (deepCopy (dig "infrastructure" dict $global)) (deepCopy .Values.infrastructure) -}}
{{- toJson (dict "networkPolicy" $np "infrastructure" $infra) -}}
{{- end -}}

{{- define "sika-lib.peerSelector" -}}
- podSelector:
    matchLabels:
      app.kubernetes.io/name: {{ .name }}
      app.kubernetes.io/instance: {{ .release }}
      app.kubernetes.io/component: server
{{- end -}}

{{- define "sika-lib.dnsEgress" -}}
- ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
  {{- with .to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{- define "sika-lib.infrastructureEgress" -}}
{{- $settings := .settings -}}
{{- range .names }}
{{- $target := get $settings.infrastructure . | default dict }}
{{- if not $target.port }}
{{- fail (printf "infrastructure.%s.port is not set" .) }}
{{- end }}
# {{ . }}
- ports:
    - port: {{ $target.port }}
      protocol: TCP
  {{- with $target.to }}
  to:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- end -}}

{{- define "sika-lib.networkPolicy" -}}
{{- $root := .root -}}
{{- $settings := include "sika-lib.networkPolicySettings" $root | fromJson -}}
{{- $np := $settings.networkPolicy -}}
{{- if $np.enabled -}}
{{- $release := $root.Release.Name -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "sika-lib.fullname" $root }}
  labels:
    {{- include "sika-lib.labels" $root | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "sika-lib.selectorLabels" $root | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
  ingress:
    {{- range .ingress }}
    {{- $extra := get $np (.from | default "") | default list }}
    {{- if and .public (empty $extra) }}
    # {{ .port }}: public, from any source
    - ports:
        - port: {{ .port }}
          protocol: TCP
    {{- else if or .peers $extra }}
    - ports:
        - port: {{ .port }}
          protocol: TCP
      from:
        {{- range .peers }}
        {{- include "sika-lib.peerSelector" (dict "name" . "release" $release) | nindent 8 }}
        {{- end }}
        {{- with $extra }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    {{- end }}
    {{- end }}
    # metrics, /healthz, /readyz: {{ ternary "from metricsFrom" "from any pod" (not (empty $np.metricsFrom)) }}
    - ports:
        - port: metrics
          protocol: TCP
      {{- with $np.metricsFrom }}
      from:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    {{- with $np.extraIngress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  egress:
    {{- include "sika-lib.dnsEgress" $np.dns | nindent 4 }}
    {{- range .egress }}
    {{- $peer := get $root.Values.peers . }}
    - ports:
        - port: {{ $peer.port }}
          protocol: TCP
      to:
        {{- include "sika-lib.peerSelector" (dict "name" . "release" $release) | nindent 8 }}
    {{- end }}
    {{- with include "sika-lib.infrastructureEgress" (dict "settings" $settings "names" (.infrastructure | default list)) | trim }}
    {{- . | nindent 4 }}
    {{- end }}
    {{- with .extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- with $np.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end -}}
{{- end -}}
