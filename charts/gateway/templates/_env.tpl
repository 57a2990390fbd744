{{/* The variables only this service has; HOST, LOG_LEVEL, the ports and extraEnv come from sika-lib. */}}
{{- define "gateway.env" -}}
{{ include "sika-lib.secretEnvVar" (dict "root" . "name" "REDIS_URL") }}
{{ include "sika-lib.envVar" (dict "name" "MERCHANTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "merchants"))) }}
{{ include "sika-lib.envVar" (dict "name" "PAYMENTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payments"))) }}
{{ include "sika-lib.envVar" (dict "name" "LEDGER_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "ledger"))) }}
{{ include "sika-lib.envVar" (dict "name" "PAYOUTS_GRPC_ADDRESS" "value" (include "sika-lib.peerAddress" (dict "root" . "peer" "payouts"))) }}
{{- with .Values.publicBaseUrl | default (include "sika-lib.ingressUrl" .) }}
{{ include "sika-lib.envVar" (dict "name" "PUBLIC_BASE_URL" "value" .) }}
{{- end }}
{{- end -}}
