/**
 * Word lists the seeded world draws from besides faker: faker's zh_CN locale has Chinese names and
 * cities but English job titles and Latin lorem, so departments, titles, industries, products and
 * company brands are ours, written in both languages (not translated templates: each zh entry is
 * what a Chinese office would say).
 */

/** Pinyin of faker zh_CN's surnames, for e-mail addresses (a test keeps it complete). */
export const SURNAME_PINYIN: Record<string, string> = Object.fromEntries(
  (
    '丁ding 万wan 上官shangguan 严yan 乔qiao 于yu 付fu 令狐linghu 任ren 伍wu 何he 余yu 侯hou 俞yu 倪ni 傅fu 关guan ' +
    '冯feng 刘liu 包bao 卢lu 史shi 叶ye 司徒situ 司马sima 向xiang 吕lv 吴wu 周zhou 唐tang 夏xia 夏侯xiahou 姚yao ' +
    '姜jiang 孔kong 孙sun 孟meng 季ji 安an 宋song 尉迟yuchi 尚shang 尹yin 岳yue 崔cui 常chang 庄zhuang 庞pang 康kang ' +
    '廖liao 张zhang 彭peng 徐xu 慕容murong 成cheng 戴dai 文wen 方fang 施shi 易yi 曹cao 曾zeng 朱zhu 李li 杜du ' +
    '杨yang 林lin 柳liu 柴chai 梁liang 樊fan 欧阳ouyang 武wu 段duan 殷yin 毕bi 毛mao 江jiang 汤tang 汪wang 沈shen ' +
    '洪hong 涂tu 温wen 潘pan 焦jiao 熊xiong 牛niu 王wang 田tian 申shen 申屠shentu 白bai 皇甫huangfu 石shi 祁qi ' +
    '祝zhu 秦qin 程cheng 章zhang 简jian 纪ji 罗luo 翟zhai 耿geng 聂nie 肖xiao 胡hu 芦lu 苏su 范fan 莫mo 萧xiao ' +
    '葛ge 董dong 蒋jiang 蓝lan 蔡cai 薛xue 袁yuan 覃qin 许xu 诸葛zhuge 谢xie 谭tan 贺he 贾jia 赖lai 赵zhao 邓deng ' +
    '邢xing 邱qiu 邵shao 邹zou 郑zheng 郝hao 郭guo 金jin 钟zhong 钱qian 长孙zhangsun 闫yan 阎yan 陆lu 陈chen 陶tao ' +
    '雷lei 韦wei 韩han 顾gu 颜yan 马ma 骆luo 高gao 魏wei 鲁lu 麦mai 黄huang 黎li 齐qi 龙long 龚gong'
  )
    .split(' ')
    .map((e) => {
      const i = e.search(/[a-z]/);
      return [e.slice(0, i), e.slice(i)];
    }),
);

/** zh company brands with the pinyin their domains use. */
export const ZH_BRANDS: readonly (readonly [string, string])[] = (
  '恒泰hengtai 华信huaxin 金桥jinqiao 瑞丰ruifeng 远航yuanhang 天成tiancheng 鼎盛dingsheng 新元xinyuan 博远boyuan ' +
  '宏图hongtu 嘉禾jiahe 中联zhonglian 安捷anjie 汇通huitong 星辰xingchen 云帆yunfan 海川haichuan 正阳zhengyang ' +
  '德润derun 明德mingde 鑫源xinyuan 华瑞huarui 长青changqing 卓越zhuoyue 盛世shengshi 万象wanxiang 凯越kaiyue ' +
  '诚达chengda 光启guangqi 泰和taihe'
)
  .split(' ')
  .map((e) => {
    const i = e.search(/[a-z]/);
    return [e.slice(0, i), e.slice(i)] as const;
  });

export const ZH_LEGAL = ['有限公司', '股份有限公司', '集团有限公司'] as const;

type Pair = { en: string; zh: string };
const pairs = (s: string): Pair[] =>
  s
    .trim()
    .split('\n')
    .map((l) => {
      const [en, zh] = l.split('|').map((x) => x.trim());
      return { en: en!, zh: zh! };
    });

/** Internal departments. */
export const DEPARTMENTS = {
  sales: { en: 'Sales', zh: '销售部' },
  success: { en: 'Customer Success', zh: '客户成功部' },
  finance: { en: 'Finance', zh: '财务部' },
  engineering: { en: 'Engineering', zh: '研发部' },
  it: { en: 'IT', zh: '信息技术部' },
  security: { en: 'Security', zh: '安全部' },
  operations: { en: 'Operations', zh: '运营部' },
  procurement: { en: 'Procurement', zh: '采购部' },
  legal: { en: 'Legal', zh: '法务部' },
  marketing: { en: 'Marketing', zh: '市场部' },
} as const;
export type DepartmentKey = keyof typeof DEPARTMENTS;

export const TITLES: Record<DepartmentKey, Pair> = {
  sales: { en: 'Account Manager', zh: '客户经理' },
  success: { en: 'Customer Success Manager', zh: '客户成功经理' },
  finance: { en: 'Finance Controller', zh: '财务主管' },
  engineering: { en: 'Senior Engineer', zh: '高级工程师' },
  it: { en: 'IT Administrator', zh: '系统管理员' },
  security: { en: 'Security Officer', zh: '信息安全主管' },
  operations: { en: 'Operations Lead', zh: '运营主管' },
  procurement: { en: 'Procurement Specialist', zh: '采购专员' },
  legal: { en: 'Legal Counsel', zh: '法务顾问' },
  marketing: { en: 'Marketing Manager', zh: '市场经理' },
};

export const INDUSTRIES = pairs(`
Technology | 科技
Retail | 零售
Healthcare | 医疗
Manufacturing | 制造
Logistics | 物流
Financial Services | 金融服务
Education | 教育
Media | 传媒
Energy | 能源
Hospitality | 酒店服务`);

/** Products for inventory records and orders: name, category, unit price range. */
export const PRODUCTS: readonly (Pair & { cat: Pair; price: readonly [number, number] })[] = [
  ['USB-C Docking Station | USB-C 扩展坞', 'Electronics | 电子产品', [89, 260]],
  ['Wireless Barcode Scanner | 无线扫码枪', 'Electronics | 电子产品', [60, 180]],
  ['Thermal Label Printer | 热敏标签打印机', 'Office Equipment | 办公设备', [120, 420]],
  ['27-inch 4K Monitor | 27 英寸 4K 显示器', 'Electronics | 电子产品', [240, 560]],
  ['Ergonomic Office Chair | 人体工学办公椅', 'Furniture | 办公家具', [180, 650]],
  ['Noise-cancelling Headset | 降噪耳机', 'Electronics | 电子产品', [70, 320]],
  ['Adjustable Laptop Stand | 可调节笔记本支架', 'Office Supplies | 办公用品', [25, 90]],
  ['24-port Network Switch | 24 口千兆交换机', 'Networking | 网络设备', [150, 480]],
  ['Shipping Label Roll 100x150 | 100x150 物流标签纸', 'Office Supplies | 办公用品', [8, 30]],
  ['Laser Toner Cartridge | 激光打印机硒鼓', 'Office Supplies | 办公用品', [45, 140]],
  ['Wi-Fi 6 Access Point | Wi-Fi 6 无线接入点', 'Networking | 网络设备', [110, 390]],
  ['Standing Desk Frame | 电动升降桌架', 'Furniture | 办公家具', [220, 700]],
  ['Rugged Handheld Terminal | 三防手持终端', 'Electronics | 电子产品', [300, 900]],
  ['Cat6 Patch Cable 2m | 六类网线 2 米', 'Networking | 网络设备', [3, 12]],
].map(([names, cat, price]) => {
  const [en, zh] = (names as string).split(' | ');
  const [cen, czh] = (cat as string).split(' | ');
  return { en: en!, zh: zh!, cat: { en: cen!, zh: czh! }, price: price as [number, number] };
});

/** Suppliers of those products (a vendor is a company too, but kept short). */
export const SUPPLIERS = pairs(`
Northwind Supply | 北辰供应链
Brightline Distribution | 明途分销
Harbor Components | 港湾电子元件
Summit Office Direct | 峰汇办公直供
Keystone Trading | 基石贸易
Bluepeak Logistics | 蓝峰物流`);

/** News sources for rss records. */
export const NEWS_SOURCES = pairs(`
Industry Daily | 行业日报
Tech Insider | 科技前沿
Market Watch Weekly | 市场观察周刊
Ops Digest | 运维文摘
Security Bulletin | 安全快讯
Supply Chain Review | 供应链评论`);
