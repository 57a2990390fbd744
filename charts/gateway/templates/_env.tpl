{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{/* The test helper that makes a waiting customer pay uses the release's simulator, installed only in test mode. */}}
{{- define "gateway.testModeUsesSimulator" -}}
{{- if dig "testMode" "enabled" true (.Values.global | default dict) -}}
true
{{- end -}}
{{- end -}}

{{- define "gateway.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "REDIS_URL") }}
{{ include "sika-lib.envVar" (dict "name" "MERCHANTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "merchants"))) }}
{{ include "sika-lib.envVar" (dict "name" "PAYMENTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payments"))) }}
{{ include "sika-lib.envVar" (dict "name" "LEDGER_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "ledger"))) }}
{{ include "sika-lib.envVar" (dict "name" "PAYOUTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payouts"))) }}
{{ include "sika-lib.envVar" (dict "name" "WEBHOOKS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "webhook-dispatcher"))) }}
{{- if include "gateway.testModeUsesSimulator" . }}
{{ include "sika-lib.envVar" (dict "name" "SIMULATOR_URL" "value" (printf "http://%s" (include "sika-lib.peerAddress" (dict "root" . "peer" "pispi-simulator")))) }}
{{- end }}
{{- with .Values.publicBaseUrl | default (include "sika-lib.ingressUrl" .) }}
{{ include "sika-lib.envVar" (dict "name" "PUBLIC_BASE_URL" "value" .) }}
{{- end }}
{{- end -}}
