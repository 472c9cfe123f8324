/**
 * What a case is about: the issue a customer raises and how it shows in every service — the ticket
 * title, the knowledge-base procedure (with a number the agent must report), the integration and
 * scheduler job behind it, the news headline. Each topic is written in both languages.
 */
type Pair = { en: string; zh: string };
export type Topic = {
  key: string;
  /** A tag without digits (a check targets it; digits would make it look like an id). */
  tag: string;
  issue: Pair;
  ticket: Pair;
  kbTitle: Pair;
  kbCategory: Pair;
  /** The procedure's key rule; `n` is the number the agent reports. */
  kbStep: (n: number) => Pair;
  numbers: readonly number[];
  integration: Pair & { service: string };
  job: string;
  headline: Pair;
};

export const TOPICS: readonly Topic[] = [
  {
    key: 'sso',
    tag: 'sso',
    issue: { en: 'SSO login failures', zh: '单点登录失败' },
    ticket: { en: 'Users cannot sign in with SSO', zh: '员工无法通过单点登录进入系统' },
    kbTitle: { en: 'Rotating SSO signing certificates', zh: '单点登录签名证书轮换流程' },
    kbCategory: { en: 'Identity & Access', zh: '身份与访问' },
    kbStep: (n) => ({
      en: `Rotate the signing certificate every ${n} days and re-upload the IdP metadata on both sides.`,
      zh: `签名证书须每 ${n} 天轮换一次，并在双方系统重新上传 IdP 元数据。`,
    }),
    numbers: [30, 60, 90, 180],
    integration: { en: 'Okta SSO', zh: 'Okta 单点登录', service: 'identity' },
    job: 'sso-metadata-sync',
    headline: { en: 'Identity providers shorten certificate lifetimes', zh: '多家身份服务商缩短证书有效期' },
  },
  {
    key: 'webhook',
    tag: 'webhook',
    issue: { en: 'webhook delivery failures', zh: 'Webhook 推送失败' },
    ticket: { en: 'Order webhooks are not delivered', zh: '订单 Webhook 无法送达' },
    kbTitle: { en: 'Replaying failed webhook deliveries', zh: 'Webhook 失败重放操作指南' },
    kbCategory: { en: 'Integrations', zh: '系统集成' },
    kbStep: (n) => ({
      en: `Failed deliveries can be replayed for ${n} hours; after that the events must be re-exported.`,
      zh: `失败的推送可在 ${n} 小时内重放，超过时限须重新导出事件。`,
    }),
    numbers: [24, 48, 72],
    integration: { en: 'Order Webhook Relay', zh: '订单 Webhook 中继', service: 'webhooks' },
    job: 'webhook-retry-queue',
    headline: { en: 'Outage at a major cloud region delays webhooks', zh: '某云服务区域故障导致 Webhook 延迟' },
  },
  {
    key: 'billing',
    tag: 'billing',
    issue: { en: 'duplicate invoice charges', zh: '发票重复扣款' },
    ticket: { en: 'Customer charged twice for one invoice', zh: '同一张发票被重复扣款' },
    kbTitle: { en: 'Handling duplicate payment refunds', zh: '重复付款退款处理流程' },
    kbCategory: { en: 'Billing', zh: '账务' },
    kbStep: (n) => ({
      en: `Refunds of duplicate charges must be issued within ${n} business days of confirmation.`,
      zh: `重复扣款须在确认后 ${n} 个工作日内完成退款。`,
    }),
    numbers: [3, 5, 7, 10],
    integration: { en: 'Stripe Payments', zh: 'Stripe 支付网关', service: 'payments' },
    job: 'payment-reconciliation',
    headline: { en: 'Card networks update dispute timelines', zh: '银行卡组织调整争议处理时限' },
  },
  {
    key: 'sync',
    tag: 'data-sync',
    issue: { en: 'CRM data sync delays', zh: 'CRM 数据同步延迟' },
    ticket: { en: 'Contact changes take hours to sync', zh: '联系人变更要好几个小时才能同步' },
    kbTitle: { en: 'Troubleshooting CRM sync backlogs', zh: 'CRM 同步积压排查手册' },
    kbCategory: { en: 'Data Platform', zh: '数据平台' },
    kbStep: (n) => ({
      en: `If the backlog exceeds ${n} minutes, pause the nightly import and run the delta sync manually.`,
      zh: `积压超过 ${n} 分钟时，先暂停夜间导入，再手动执行增量同步。`,
    }),
    numbers: [15, 30, 45, 60],
    integration: { en: 'Salesforce Connector', zh: 'Salesforce 连接器', service: 'crm-sync' },
    job: 'crm-delta-sync',
    headline: { en: 'API quotas tighten across SaaS vendors', zh: '多家 SaaS 厂商收紧 API 调用配额' },
  },
  {
    key: 'vpn',
    tag: 'vpn',
    issue: { en: 'VPN disconnects', zh: 'VPN 频繁断线' },
    ticket: { en: 'Remote staff keep losing the VPN connection', zh: '远程员工的 VPN 连接频繁中断' },
    kbTitle: { en: 'VPN client reconfiguration guide', zh: 'VPN 客户端重新配置指南' },
    kbCategory: { en: 'IT Support', zh: 'IT 支持' },
    kbStep: (n) => ({
      en: `Set the keep-alive interval to ${n} seconds and reinstall the client profile.`,
      zh: `将保活间隔设为 ${n} 秒，并重新安装客户端配置文件。`,
    }),
    numbers: [10, 20, 30],
    integration: { en: 'Corporate VPN Gateway', zh: '企业 VPN 网关', service: 'network' },
    job: 'vpn-cert-renewal',
    headline: { en: 'Vulnerability found in popular VPN appliances', zh: '多款主流 VPN 设备曝出安全漏洞' },
  },
  {
    key: 'mfa',
    tag: 'mfa',
    issue: { en: 'MFA codes not arriving', zh: '二次验证码收不到' },
    ticket: { en: 'Verification codes never arrive by SMS', zh: '短信验证码一直收不到' },
    kbTitle: { en: 'Resetting multi-factor authentication', zh: '多因素认证重置流程' },
    kbCategory: { en: 'Identity & Access', zh: '身份与访问' },
    kbStep: (n) => ({
      en: `A reset requires a video call with the user and expires after ${n} minutes if unused.`,
      zh: `重置须与用户视频核验身份，未使用的重置链接 ${n} 分钟后失效。`,
    }),
    numbers: [10, 15, 30],
    integration: { en: 'Twilio SMS Gateway', zh: 'Twilio 短信网关', service: 'messaging' },
    job: 'sms-provider-healthcheck',
    headline: { en: 'Carriers filter more verification texts as spam', zh: '运营商加强拦截验证码短信' },
  },
  {
    key: 'export',
    tag: 'reporting',
    issue: { en: 'report export timeouts', zh: '报表导出超时' },
    ticket: { en: 'Monthly report export times out', zh: '月度报表导出一直超时' },
    kbTitle: { en: 'Exporting large reports in batches', zh: '大报表分批导出方法' },
    kbCategory: { en: 'Reporting', zh: '报表' },
    kbStep: (n) => ({
      en: `Split exports into batches of at most ${n} thousand rows.`,
      zh: `导出须拆分为每批不超过 ${n} 千行。`,
    }),
    numbers: [50, 100, 200],
    integration: { en: 'BigQuery Export', zh: 'BigQuery 数据导出', service: 'analytics' },
    job: 'monthly-report-export',
    headline: { en: 'Data warehouses cut query timeouts', zh: '主流数仓下调查询超时上限' },
  },
  {
    key: 'shipping',
    tag: 'shipping',
    issue: { en: 'delayed shipments', zh: '发货延迟' },
    ticket: { en: 'Orders stuck in "awaiting shipment"', zh: '订单一直停留在“待发货”' },
    kbTitle: { en: 'Escalating carrier delays', zh: '承运商延误升级处理流程' },
    kbCategory: { en: 'Fulfilment', zh: '履约' },
    kbStep: (n) => ({
      en: `Escalate to the carrier when a parcel has not moved for ${n} hours.`,
      zh: `包裹超过 ${n} 小时无物流更新时，须向承运商升级。`,
    }),
    numbers: [24, 36, 48],
    integration: { en: 'ShipStation Connector', zh: 'ShipStation 物流接口', service: 'shipping' },
    job: 'carrier-status-poll',
    headline: { en: 'Port congestion slows regional deliveries', zh: '港口拥堵拖慢区域配送' },
  },
];
